import math
import random

import pytest
import torch

from training.data import Tokenization
from training.model import load_model, load_tokenizer
from training.pairwise import (
    PairwiseConfig,
    main,
    pair_scores,
    step_score,
    tokenize_pairs,
    train_pairwise,
)
from training.score import PRMScorer

from .tiny import toy_step, write_jsonl


def _step(rng: random.Random, wrong: bool) -> str:
    return toy_step(rng, wrong)[0]


def toy_pairs(count: int, *, seed: int = 0, split: str | None = None) -> list[dict]:
    """Pairwise rows whose preference is learnable: the rejected step says MARKER."""
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        row = {
            "prompt": f"Problem {i}: what is {i} + {i}?",
            "prefix": [_step(rng, False) for _ in range(rng.randint(0, 2))],
            "chosen": _step(rng, False),
            "rejected": _step(rng, True),
        }
        if split:
            row["split"] = split
        rows.append(row)
    return rows


def test_bradley_terry_training_learns_the_preference(tiny_lm, tmp_path):
    data = write_jsonl(
        tmp_path / "pairs.jsonl", toy_pairs(48) + toy_pairs(16, seed=9, split="validation")
    )
    config = PairwiseConfig(
        model=str(tiny_lm),
        data=[str(data)],
        output_dir=str(tmp_path / "prm"),
        learning_rate=3e-3,
        num_epochs=4,
        batch_size=8,
        device="cpu",
    )
    result = train_pairwise(config)
    assert result.after["loss"] < result.before["loss"] - 0.2
    assert result.after["accuracy"] > result.before["accuracy"] + 0.2
    assert result.after["accuracy"] >= 0.9
    assert result.eval is not None and result.eval["accuracy"] >= 0.8
    losses = [h["loss"] for h in config.history]
    assert sum(losses[-4:]) / 4 < sum(losses[:4]) / 4

    # The saved model is an ordinary PRM: PRMScorer's probability is sigmoid(s) of the step.
    scorer = PRMScorer(result.out_dir, device="cpu")
    assert scorer.model.config.prm_kind == "pairwise"
    row = toy_pairs(1, seed=5)[0]
    (good, bad) = scorer.score(
        row["prompt"], [row["prefix"] + [row["chosen"]], row["prefix"] + [row["rejected"]]]
    )
    assert good[-1] > bad[-1]
    model = load_model(result.out_dir).eval()
    tokenizer = load_tokenizer(result.out_dir)
    from training.pairwise import PairRow

    (pair,) = tokenize_pairs(
        [PairRow(row["prompt"], row["prefix"], row["chosen"], row["rejected"])],
        tokenizer,
        Tokenization(),
    )
    with torch.no_grad():
        c, r = pair_scores(model, [pair], tokenizer.pad_token_id)
    assert good[-1] == pytest.approx(1 / (1 + math.exp(-float(c[0]))), abs=1e-5)
    assert bad[-1] == pytest.approx(1 / (1 + math.exp(-float(r[0]))), abs=1e-5)


def test_step_score_is_the_log_odds():
    logits = torch.tensor([[0.5, 2.0], [1.0, -1.0]])
    assert step_score(logits).tolist() == [1.5, -2.0]
    assert torch.allclose(logits.softmax(-1)[:, 1], torch.sigmoid(step_score(logits)))


def test_cli_reports_a_bad_row(tiny_lm, tmp_path, capsys):
    data = write_jsonl(tmp_path / "bad.jsonl", [{"prompt": "p", "prefix": [], "chosen": "a"}])
    code = main(["--data", str(data), "--model", str(tiny_lm), "--out", str(tmp_path / "o")])
    assert code == 2
    assert "field 'rejected'" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
