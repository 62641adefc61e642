import logging
import sys

import pytest
import torch

from training.metrics import StepCounts, plot_metrics


def test_step_counts_give_accuracy_and_f1_per_label():
    counts = StepCounts()
    # predictions (argmax): 1, 1, 0, 0, 1 against gold 1, 0, 0, 1, -100 (ignored)
    logits = torch.tensor([[[0, 1], [0, 1], [1, 0], [1, 0], [0, 1]]], dtype=torch.float)
    labels = torch.tensor([[1, 0, 0, 1, -100]])
    counts.add(logits, labels, loss=0.5)
    counts.add(logits[:, :1], labels[:, :1], loss=0.3)  # one more true positive
    summary = counts.summary()
    assert (counts.tp, counts.tn, counts.fp, counts.fn) == (2, 1, 1, 1)
    assert summary["steps"] == 5
    assert summary["accuracy"] == pytest.approx(3 / 5)
    assert summary["f1_correct"] == pytest.approx(2 * 2 / (2 * 2 + 1 + 1))  # 2/3
    assert summary["f1_wrong"] == pytest.approx(2 * 1 / (2 * 1 + 1 + 1))  # 1/2
    assert summary["f1"] == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert summary["loss"] == pytest.approx(0.4)
    assert StepCounts.from_tensor(counts.as_tensor()) == counts


def test_plot_is_drawn_or_skipped_with_a_message(tmp_path, monkeypatch, caplog):
    records = [
        {"split": "train", "step": s, "loss": 1 / s, "accuracy": 0.5, "f1": 0.4} for s in (1, 2)
    ]
    records.append({"split": "eval", "step": 2, "loss": 0.6, "accuracy": 0.6, "f1": 0.5})
    pytest.importorskip("matplotlib")
    path = plot_metrics(records, tmp_path / "m.png")
    assert path is not None and path.read_bytes()[:4] == b"\x89PNG"

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    with caplog.at_level(logging.WARNING, logger="training.metrics"):
        assert plot_metrics(records, tmp_path / "n.png") is None
    assert "matplotlib is not installed" in caplog.text
    assert not (tmp_path / "n.png").exists()
