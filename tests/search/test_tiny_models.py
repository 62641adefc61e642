"""Beam search end to end: the tiny transformers policy, a tiny PRM, the CLI and its report."""

import json

from autolabel.completers import TransformersCompleter
from autolabel.search import SearchConfig, SearchProblem, beam_search, compare
from autolabel.search.__main__ import main
from autolabel.search.beam import token_counter
from tests.autolabel_rollouts.tiny_model import PROBLEM
from training.score import PRMScorer

CONFIG = SearchConfig(beam_width=2, expansions=3, max_depth=3, max_step_tokens=24, seed=0)


def test_beam_search_on_the_tiny_policy(tiny_policy, tiny_prm):
    policy = TransformersCompleter(tiny_policy)
    scorer = PRMScorer(tiny_prm, device="cpu")
    count, name = token_counter(policy.tokenizer)
    assert name.startswith("tokenizer:")
    result = beam_search(PROBLEM, policy, scorer, CONFIG, count_tokens=count)
    assert 1 <= result.depth <= CONFIG.max_depth
    assert result.samples >= CONFIG.expansions and result.tokens > 0
    assert result.tokens <= result.samples * (CONFIG.max_step_tokens + count("\n"))
    best = result.best
    assert best is not None and best.steps and len(best.scores) == len(best.steps)
    assert all(0.0 <= s <= 1.0 for s in best.scores)
    assert best.value == best.scores[-1]
    # the PRM's scores of the returned path are what a direct call gives
    again = scorer.score(PROBLEM, [best.steps])[0]
    assert len(again) == len(best.scores)
    for a, b in zip(again, best.scores, strict=True):
        assert abs(a - b) < 1e-5
    # the tiny policy was trained to box an answer: the search finishes with one
    assert result.answer in {"4", "5"}
    assert len(result.finished) <= CONFIG.beam_width
    # same seed, same search
    assert beam_search(PROBLEM, policy, scorer, CONFIG, count_tokens=count).as_dict() == (
        result.as_dict()
    )


def test_compare_and_cli_report(tiny_policy, tiny_prm, tmp_path):
    problems = tmp_path / "problems.jsonl"
    problems.write_text(
        json.dumps({"id": "two", "problem": PROBLEM, "answer": "4"})
        + "\n"
        + json.dumps({"problem": PROBLEM, "gold": "\\frac{8}{2}"})
        + "\n"
    )
    out = tmp_path / "report.json"
    policy = json.dumps({"kind": "transformers", "path": str(tiny_policy)})
    args = [str(problems), "--prm", str(tiny_prm), "--policy", policy, "--beam-width", "2"]
    args += ["--expansions", "2", "--max-depth", "3", "--max-step-tokens", "24"]
    assert main([*args, "--compare", "--device", "cpu", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["problems"] == 2 and [r["id"] for r in report["rows"]] == ["two", "1"]
    assert set(report["accuracy"]) == {"beam", "best_of_n", "majority", "pass@n"}
    assert all(0.0 <= v <= 1.0 for v in report["accuracy"].values())
    assert report["token_counter"].startswith("tokenizer:")
    assert report["config"]["beam_width"] == 2 and report["config"]["separator"] == "\n"
    for row in report["rows"]:
        assert row["baseline_tokens"] >= row["beam"]["tokens"] > 0
        assert row["n"] >= 1
        # correctness follows the answers (4 and 8/2 are the same answer)
        assert row["beam"]["correct"] == (row["beam"]["answer"] == "4")
        assert row["majority"]["correct"] == (row["majority"]["answer"] == "4")
    assert report["tokens"]["baseline"] >= report["tokens"]["beam"]


def test_cli_rejects_a_bad_problems_file(tiny_prm, tmp_path, capsys):
    problems = tmp_path / "bad.jsonl"
    problems.write_text(json.dumps({"problem": PROBLEM}) + "\n")
    policy = json.dumps({"kind": "scripted", "gold": "4"})
    assert main([str(problems), "--prm", str(tiny_prm), "--policy", policy]) == 2
    assert "field 'answer' (or 'gold'): missing" in capsys.readouterr().err
    problems.write_text("\n")
    assert main([str(problems), "--prm", str(tiny_prm), "--policy", policy]) == 2
    assert "no problems" in capsys.readouterr().err


def test_a_search_that_never_answers_is_wrong_and_baselines_still_vote(tiny_prm):
    from autolabel.completers import ScriptedCompleter

    policy = ScriptedCompleter(lambda prompt: 0.5, "4", name="half")
    scorer = PRMScorer(tiny_prm, device="cpu")
    report = compare(
        [SearchProblem(str(i), f"What is {i} + {4 - i}?", "4") for i in range(3)],
        policy,
        scorer,
        SearchConfig(beam_width=2, expansions=2, max_depth=2),
        count_tokens=len,
        token_counter="chars",
    )
    assert report["problems"] == 3
    for row in report["rows"]:
        # cut at "\n", the scripted text never reaches its answer line: max depth, no answer
        assert row["beam"]["answer"] is None and not row["beam"]["correct"]
        assert row["beam"]["steps"] == ["We finish the computation."] * 2
        assert row["beam"]["depth"] == 2
        # whole solutions do state an answer
        assert row["majority"]["answer"] in {"4", "-7919"}
        assert row["majority"]["correct"] == (row["majority"]["answer"] == "4")
        assert row["baseline_tokens"] >= row["beam"]["tokens"]
    assert report["accuracy"]["beam"] == 0.0
