import pytest

from autolabel.sandbox import SandboxUnavailable, run_python


@pytest.fixture(scope="session")
def sandbox() -> None:
    """Skip (with the reason) where the full sandbox cannot be set up, e.g. not root."""
    try:
        run_python("pass")
    except SandboxUnavailable as exc:
        pytest.skip(f"sandbox unavailable here: {exc}")


@pytest.fixture
def run(sandbox):
    return run_python
