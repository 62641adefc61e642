from pathlib import Path

import pytest

from autolabel.completers import clear_completer_cache

from .servers import transformers_serve


@pytest.fixture(autouse=True)
def _fresh_completers():
    """Each test builds its completers anew (the process cache would share counters)."""
    clear_completer_cache()
    yield
    clear_completer_cache()


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from .tiny_model import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny-qwen2"))


@pytest.fixture(scope="session")
def served_model(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory):
    """A real OpenAI-compatible server (`transformers serve`) for the tiny model."""
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with transformers_serve(tiny_model, log=log) as url:
        yield url
