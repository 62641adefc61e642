import random

import pytest
import torch

from training.data import DataError, Tokenization
from training.implicit import (
    ImplicitConfig,
    ImplicitPRMScorer,
    load_causal_lm,
    main,
    save_implicit,
    train_implicit,
)
from training.model import load_tokenizer

from .tiny import MARKER, toy_step, write_jsonl

PROBLEM = "Problem 3: what is 3 + 3?"
SOLUTIONS = [["add the two numbers 3.", "so we get 6."], ["oops check result 7."], []]


def _perturbed_policy(tiny_lm):
    torch.manual_seed(3)
    policy = load_causal_lm(tiny_lm).eval()
    with torch.no_grad():
        for p in policy.parameters():
            p.add_(0.05 * torch.randn_like(p))
    return policy


def _by_hand(policy, reference, tokenizer, steps, beta):
    """Each model's token log-probs in one forward pass, summed per step and differenced."""
    sep = tokenizer.encode("\n", add_special_tokens=False)
    ids = tokenizer.encode(PROBLEM, add_special_tokens=False)
    spans = []
    for step in steps:
        begin = len(ids)
        ids = ids + tokenizer.encode(step, add_special_tokens=False) + sep
        spans.append((begin, len(ids)))
    rewards = []
    with torch.no_grad():
        lp = {}
        for name, model in (("pi", policy), ("ref", reference)):
            logits = model(input_ids=torch.tensor([ids])).logits[0].double()
            lp[name] = [
                float(logits[j - 1].log_softmax(-1)[ids[j]]) for j in range(len(ids)) if j > 0
            ]
    for begin, end in spans:
        total = sum(lp["pi"][j - 1] - lp["ref"][j - 1] for j in range(begin, end))
        rewards.append(beta * total)
    return rewards


def test_step_rewards_are_the_log_ratio_increments(tiny_lm, tmp_path):
    tokenizer = load_tokenizer(tiny_lm)
    policy = _perturbed_policy(tiny_lm)
    reference = load_causal_lm(tiny_lm).eval()
    save_implicit(policy, reference, tokenizer, tmp_path / "m", beta=0.5, settings=Tokenization())
    scorer = ImplicitPRMScorer(tmp_path / "m", device="cpu", batch_size=2, output="reward")
    got = scorer.score(PROBLEM, SOLUTIONS)
    assert [len(r) for r in got] == [2, 1, 0]
    for steps, rewards in zip(SOLUTIONS[:2], got, strict=False):
        expected = _by_hand(policy, reference, tokenizer, steps, 0.5)
        assert rewards == pytest.approx(expected, abs=1e-4)
        assert all(abs(r) > 1e-3 for r in rewards)  # the policy differs from the reference
    probs = ImplicitPRMScorer(tmp_path / "m", device="cpu").score(PROBLEM, SOLUTIONS)
    for p, r in zip(probs, got, strict=True):
        assert p == pytest.approx([1 / (1 + torch.exp(torch.tensor(-x)).item()) for x in r])
    one = scorer.score(PROBLEM, SOLUTIONS, batch_size=1)
    assert [pytest.approx(r, abs=1e-5) for r in one] == got


def _outcome_rows(count, seed=0, split=None):
    """Solutions with only an outcome: correct iff no step says MARKER."""
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        steps, wrong = [], False
        for _ in range(rng.randint(2, 3)):
            text, bad = toy_step(rng, 0.3)
            steps.append(text)
            wrong = wrong or bad
        row = {
            "problem": f"Problem {i}: what is {i} + {i}?",
            "steps": steps,
            "final_answer_correct": not wrong,
            "label": 0,
        }
        if split:
            row["split"] = split
        rows.append(row)
    return rows


def test_training_reduces_the_outcome_loss_and_saves_a_scorer(tiny_lm, tmp_path):
    rows = _outcome_rows(48) + [{**_outcome_rows(1)[0], "final_answer_correct": None}]
    data = write_jsonl(tmp_path / "outcomes.jsonl", rows)
    config = ImplicitConfig(
        model=str(tiny_lm),
        data=[str(data)],
        output_dir=str(tmp_path / "imp"),
        beta=0.5,
        learning_rate=3e-3,
        num_epochs=4,
        batch_size=8,
        device="cpu",
    )
    result = train_implicit(config)
    assert result.after["loss"] < result.before["loss"] - 0.3
    assert result.after["accuracy"] >= 0.9 > result.before["accuracy"]
    assert result.before["solutions"] == 48  # the row without an outcome is skipped
    scorer = ImplicitPRMScorer(result.out_dir, device="cpu", output="reward")
    good, bad = scorer.score(PROBLEM, [["add the two numbers 3."], [f"add {MARKER} the two 3."]])
    assert bad[0] < good[0]
    # The saved reference is the untrained checkpoint.
    ref = load_causal_lm(result.out_dir / "reference")
    orig = load_causal_lm(tiny_lm)
    for a, b in zip(ref.parameters(), orig.parameters(), strict=True):
        assert torch.equal(a, b)


def test_cli_rejects_rows_without_an_outcome_field(tiny_lm, tmp_path, capsys):
    data = write_jsonl(tmp_path / "x.jsonl", [{"problem": "p", "steps": ["a"]}])
    assert main(["--data", str(data), "--model", str(tiny_lm), "--out", str(tmp_path / "o")]) == 2
    assert "answer_correct" in capsys.readouterr().err
    with pytest.raises(DataError):
        from training.implicit import read_outcomes

        read_outcomes(
            [
                write_jsonl(
                    tmp_path / "n.jsonl", [{"problem": "p", "steps": ["a"], "answer_correct": None}]
                )
            ]
        )


def test_evaluate_and_load_scorer_pick_the_implicit_scorer(tiny_lm, tmp_path):
    from training.evaluate import main as evaluate_main
    from training.scorers import load_scorer, prm_kind

    tokenizer = load_tokenizer(tiny_lm)
    policy = _perturbed_policy(tiny_lm)
    out = save_implicit(
        policy,
        load_causal_lm(tiny_lm),
        tokenizer,
        tmp_path / "m",
        beta=1.0,
        settings=Tokenization(),
    )
    assert prm_kind(out) == "implicit" and prm_kind(tiny_lm) == "pointwise"
    scorer = load_scorer(out, device="cpu")
    assert isinstance(scorer, ImplicitPRMScorer)
    rows = [
        {"id": f"t-{k}", "problem": PROBLEM, "steps": s, "label": -1}
        for k, s in enumerate(SOLUTIONS[:2])
    ]
    bench = write_jsonl(tmp_path / "pb.jsonl", rows)
    saved = tmp_path / "scored.jsonl"
    code = evaluate_main(
        ["processbench", str(bench), "--model", str(out), "--save-scores", str(saved)]
    )
    assert code == 0
    import json

    scored = [json.loads(line)["step_scores"] for line in saved.read_text().splitlines()]
    assert scored == [pytest.approx(s, abs=1e-5) for s in scorer.score(PROBLEM, SOLUTIONS[:2])]


def test_the_reward_server_serves_an_implicit_prm(tiny_lm, tmp_path):
    import threading

    from tests.training.test_serve import post
    from training.serve import prm_server

    tokenizer = load_tokenizer(tiny_lm)
    out = save_implicit(
        _perturbed_policy(tiny_lm),
        load_causal_lm(tiny_lm),
        tokenizer,
        tmp_path / "m",
        beta=1.0,
        settings=Tokenization(),
    )
    server = prm_server(str(out), device="cpu", port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        items = [{"prompt": PROBLEM, "steps": list(s)} for s in SOLUTIONS[:2]]
        status, body = post(f"http://{host}:{port}/v1/rewards", {"items": items})
    finally:
        server.shutdown()
        server.server_close()
    assert status == 200
    expected = ImplicitPRMScorer(out, device="cpu").score(PROBLEM, SOLUTIONS[:2])
    assert body["step_rewards"] == [pytest.approx(e, abs=1e-5) for e in expected]
