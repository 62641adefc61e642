import pytest

from autolabel import timeouts


@pytest.fixture(scope="session", autouse=True)
def _check_workers():
    """Start the worker server once (about 1 s), so per-test time limits measure the work."""
    timeouts.warm_up()
    yield
    timeouts.shutdown()
