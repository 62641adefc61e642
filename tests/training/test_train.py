import json

import pytest
import torch
import yaml
from safetensors.torch import load_file

from training.config import TrainConfig
from training.score import PRMScorer
from training.train import train

from .tiny import MARKER


def _config(tiny_lm, toy_export, out, **overrides):
    values = dict(
        data=[str(toy_export)],
        model=str(tiny_lm),
        out=str(out),
        lr=3e-3,
        batch_size=8,
        max_steps=30,
        log_every=5,
        eval_fraction=0.2,
        packing=True,
        progress=False,
    )
    return TrainConfig(**{**values, **overrides})


def test_training_learns_the_toy_signal(tiny_lm, toy_export, tmp_path):
    seen = []
    config = _config(tiny_lm, toy_export, tmp_path / "run", eval_every=15)
    result = train(config, on_log=seen.append)
    records = [
        json.loads(line) for line in (tmp_path / "run/metrics.jsonl").read_text().splitlines()
    ]
    assert records == seen
    train_records = [r for r in records if r["split"] == "train"]
    assert [r["step"] for r in train_records] == [5, 10, 15, 20, 25, 30]
    eval_records = [r for r in records if r["split"] == "eval"]
    assert [r["step"] for r in eval_records] == [15, 30]
    assert eval_records[0]["steps"] == eval_records[1]["steps"] > 0  # the whole eval set
    assert train_records[-1]["loss"] < train_records[0]["loss"] - 0.1
    assert result.global_step == 30
    assert result.eval_metrics["accuracy"] > 0.75  # wrong iff the step says the marker
    assert result.eval_metrics == {
        k: v for k, v in records[-1].items() if k not in ("split", "step", "epoch")
    }
    assert result.tokens > 0 and result.tokens_per_second > 0
    assert result.data_stats["train"]["steps_dropped"] == 0
    for key in ("accuracy", "f1", "f1_wrong", "loss", "lr", "tokens_per_s"):
        assert key in train_records[-1]

    out = tmp_path / "run"
    card = (out / "README.md").read_text()
    import hashlib

    assert hashlib.sha256(toy_export.read_bytes()).hexdigest() in card
    assert '"max_steps": 30' in card and '"eval"' in card
    assert (out / "metrics.png").stat().st_size > 1000
    scorer = PRMScorer(out, device="cpu")
    good, bad = scorer.score(
        "Problem 1: what is 1 + 1?", [["add the numbers 2."], [f"add {MARKER} the numbers 2."]]
    )
    assert good[0] > bad[0]


def test_resume_from_a_checkpoint_matches_an_uninterrupted_run(tiny_lm, toy_export, tmp_path):
    settings = dict(
        max_steps=8,
        save_every=3,
        keep_checkpoints=3,
        log_every=1,
        packing=False,
        batch_size=6,
        group_by_length=True,
        grad_accum=2,
    )
    full = train(_config(tiny_lm, toy_export, tmp_path / "full", **settings))
    assert [p.name for p in full.checkpoints] == ["checkpoint-3", "checkpoint-6"]
    checkpoint = tmp_path / "full/checkpoint-3"
    state = json.loads((checkpoint / "trainer_state.json").read_text())
    assert state["global_step"] == 3
    assert (checkpoint / "tokenizer.json").exists()
    PRMScorer(checkpoint, device="cpu")  # a checkpoint is a loadable PRM

    resumed = train(
        _config(tiny_lm, toy_export, tmp_path / "resumed", resume_from=str(checkpoint), **settings)
    )
    assert resumed.global_step == 8
    steps = [
        json.loads(x)["step"] for x in (tmp_path / "resumed/metrics.jsonl").read_text().splitlines()
    ]
    assert steps[0] == 4
    a = load_file(str(tmp_path / "full/model.safetensors"))
    b = load_file(str(tmp_path / "resumed/model.safetensors"))
    start = load_file(str(checkpoint / "model.safetensors"))
    assert not torch.equal(a["score.weight"], start["score.weight"])
    for key in a:
        torch.testing.assert_close(b[key], a[key], atol=1e-6, rtol=1e-5)


def test_latest_resume_and_mlp2_head(tiny_lm, toy_export, tmp_path):
    out = tmp_path / "run"
    train(_config(tiny_lm, toy_export, out, max_steps=4, save_every=2, head="mlp2"))
    assert (out / "checkpoint-2").exists()
    # A worker killed while saving leaves a checkpoint without trainer_state.json (written
    # last): "latest" must resume from step 4, not from it, and the next save removes it.
    (out / "checkpoint-9" / "state").mkdir(parents=True)
    result = train(
        _config(
            tiny_lm,
            toy_export,
            out,
            max_steps=6,
            save_every=2,
            head="mlp2",
            resume_from="latest",
            keep_checkpoints=1,
        )
    )
    assert result.global_step == 6
    assert [p.name for p in result.checkpoints] == ["checkpoint-4"]
    assert sorted(p.name for p in out.glob("checkpoint-*")) == ["checkpoint-4"]
    assert {json.loads(x)["step"] for x in (out / "metrics.jsonl").read_text().splitlines()} >= {
        5,
        6,
    }
    keys = load_file(str(out / "model.safetensors")).keys()
    assert {"score.0.weight", "score.2.weight"} <= set(keys)


def test_lora_saves_a_merged_prm(tiny_lm, toy_export, tmp_path):
    pytest.importorskip("peft")
    config = _config(tiny_lm, toy_export, tmp_path, max_steps=3, lora=True, lr=1e-2, save_every=2)
    result = train(config)
    assert result.global_step == 3
    # A LoRA checkpoint is the adapter (and head); it loads merged onto its base model.
    checkpoint = tmp_path / "checkpoint-2"
    assert (checkpoint / "adapter_config.json").exists()
    loads = []
    for seed in (1, 2):  # a head left out of the checkpoint would be initialized anew
        torch.manual_seed(seed)
        loads.append(PRMScorer(checkpoint, device="cpu").score("p", [["a", "b"]])[0])
    assert len(loads[0]) == 2 and loads[0] == loads[1]
    keys = set(load_file(str(tmp_path / "model.safetensors")))
    assert not any("lora" in k for k in keys) and "score.weight" in keys
    base = load_file(str(tiny_lm / "model.safetensors"))
    merged = load_file(str(tmp_path / "model.safetensors"))
    name = next(k for k in base if k.endswith("self_attn.q_proj.weight"))
    assert not torch.equal(base[name], merged[name])  # LoRA deltas were merged in
    assert len(PRMScorer(tmp_path, device="cpu").score("p", [["a step"]])[0]) == 1


def test_config_from_yaml_with_cli_overrides(tmp_path):
    path = tmp_path / "cfg.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "data": ["a.jsonl"],
                "model": "m",
                "out": "o",
                "lr": 1e-4,
                "packing": True,
                "step_separator": "\n\n",
            }
        )
    )
    config = TrainConfig.from_args(
        [
            "--config",
            str(path),
            "--lr",
            "5e-6",
            "--no-packing",
            "--data",
            "b.jsonl",
            "c.jsonl",
            "--max-prompt-length",
            "64",
        ]
    )
    assert config.lr == 5e-6 and config.packing is False
    assert config.data == ["b.jsonl", "c.jsonl"] and config.step_separator == "\n\n"
    assert config.max_prompt_length == 64 and config.model == "m"
    cli = TrainConfig.from_args(
        [
            "--data",
            "x",
            "--model",
            "m",
            "--out",
            "o",
            "--step-separator",
            "\\n\\n",
            "--head",
            "mlp2",
        ]
    )
    assert cli.step_separator == "\n\n" and cli.head == "mlp2"
    path.write_text(json.dumps({"data": "a.jsonl", "modle": "m"}))
    with pytest.raises(ValueError, match="unknown setting.*modle"):
        TrainConfig.from_file(path)
    with pytest.raises(ValueError, match="head"):
        TrainConfig(data=["a"], model="m", out="o", head="big").validate()


def test_soft_labels_train_toward_their_probabilities(tiny_lm, tmp_path):
    from .tiny import toy_rows, write_jsonl

    rows = toy_rows(32)
    for row in rows:  # hard labels say "wrong iff marker"; the soft ones say "can't tell"
        row["soft_labels"] = [0.5] * len(row["labels"])
    data = write_jsonl(tmp_path / "soft.jsonl", rows)
    config = _config(tiny_lm, data, tmp_path / "run", label_column="soft_labels", max_steps=20,
                     eval_fraction=0.0)  # fmt: skip
    result = train(config)
    assert result.global_step == 20 and result.eval_metrics == {}
    good, bad = PRMScorer(tmp_path / "run", device="cpu").score(
        "Problem 1: what is 1 + 1?", [["add the numbers 2."], [f"add {MARKER} the numbers 2."]]
    )
    assert abs(good[0] - 0.5) < 0.1 and abs(bad[0] - 0.5) < 0.1


def test_soft_step_loss_is_cross_entropy_against_the_target_distribution():
    from training.model import step_loss

    logits = torch.tensor([[[0.0, 2.0], [1.0, -1.0], [0.3, 0.1]]])
    labels = torch.tensor([[1, -100, 0]])
    soft = torch.tensor([[0.8, -100.0, 0.25]])
    logp = logits.log_softmax(-1)[0]
    expected = -(0.2 * logp[0, 0] + 0.8 * logp[0, 1] + 0.75 * logp[2, 0] + 0.25 * logp[2, 1]) / 2
    torch.testing.assert_close(step_loss(logits, labels, soft), expected)
    hard = -(logp[0, 1] + logp[2, 0]) / 2
    torch.testing.assert_close(step_loss(logits, labels), hard)


def test_group_by_length_batches_similar_lengths_and_stays_a_permutation():
    import random

    from training.train import EpochSampler

    rng = random.Random(0)
    lengths = [rng.randint(5, 500) for _ in range(1000)]
    size = 8

    def padded_tokens(order):
        batches = [order[i : i + size] for i in range(0, len(order), size)]
        return sum(max(lengths[k] for k in b) * len(b) for b in batches)

    plain = EpochSampler(1000, 7, batch_size=size)
    grouped = EpochSampler(1000, 7, batch_size=size, lengths=lengths)
    orders = []
    for epoch in (0, 1):
        grouped.use_epoch(epoch)
        order = list(grouped)
        assert sorted(order) == list(range(1000))
        orders.append(order)
        assert order == list(grouped)  # the same epoch gives the same order (resume)
        assert padded_tokens(order) < 0.7 * padded_tokens(list(plain))
    assert orders[0] != orders[1]
    odd_lengths = [*lengths, 1, 2, 3]
    odd = list(EpochSampler(1003, 7, batch_size=size, lengths=odd_lengths))
    assert sorted(odd) == list(range(1003))
    # The loader's batches are the sampler's: each is one sorted run, the short one last.
    batches = [odd[i : i + size] for i in range(0, 1003, size)]
    assert len(batches[-1]) == 3
    for batch in batches:
        assert [odd_lengths[k] for k in batch] == sorted(
            (odd_lengths[k] for k in batch), reverse=True
        )


def test_dependencies_prefix_trains_and_is_recorded(tiny_lm, tmp_path):
    """A run on rows with `uses` and dependencies: prefix trains end to end; the saved PRM's
    config says its steps are read with the prefix."""
    from .tiny import toy_rows, write_jsonl

    rows = [
        {**row, "uses": [[k - 1] if k else [] for k in range(len(row["completions"]))]}
        for row in toy_rows(16)
    ]
    data = write_jsonl(tmp_path / "graph.jsonl", rows)
    config = _config(tiny_lm, data, tmp_path / "run", max_steps=4, dependencies="prefix")
    result = train(config)
    assert result.global_step == 4
    saved = json.loads((tmp_path / "run" / "config.json").read_text())
    assert saved["prm_dependencies"] == "prefix"
    with pytest.raises(ValueError, match="dependencies"):
        TrainConfig(data=["x"], model="m", out="o", dependencies="graph").validate()
