from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def tiny_policy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny Qwen2 trained to answer "What is 2 + 2?" with \\boxed{4} (or 5 after an error)."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tests.autolabel_rollouts.tiny_model import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny-policy"))


@pytest.fixture(scope="session")
def tiny_prm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A token-classification PRM (random head) saved the way training saves one."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    import torch

    from tests.training.tiny import build_tiny_lm
    from training.data import Tokenization
    from training.model import load_model, load_tokenizer, save_prm

    base = build_tiny_lm(tmp_path_factory.mktemp("tiny-prm-base"))
    out = tmp_path_factory.mktemp("tiny-prm")
    torch.manual_seed(0)
    model = load_model(base).eval()
    with torch.no_grad():  # a non-trivial head, so that steps get different scores
        for p in model.score.parameters():
            p.add_(torch.randn_like(p))
    save_prm(model, load_tokenizer(base), out, settings=Tokenization(step_separator="\n"))
    return out
