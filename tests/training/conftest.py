from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from .tiny import build_tiny_lm, toy_rows, write_jsonl  # noqa: E402


@pytest.fixture(scope="session")
def tiny_lm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_lm(tmp_path_factory.mktemp("tiny-qwen2"))


@pytest.fixture(scope="session")
def tiny_llama(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_lm(tmp_path_factory.mktemp("tiny-llama"), arch="llama", bos=True)


@pytest.fixture(scope="session")
def toy_export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_jsonl(tmp_path_factory.mktemp("export") / "export.jsonl", toy_rows(64))
