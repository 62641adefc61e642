"""MC and binary search through the engine, with the deterministic ScriptedCompleter."""

import math

import pytest

from autolabel.completers import SamplingParams, ScriptedCompleter, completer_from_config
from autolabel.engines.base import SolutionInput
from autolabel.engines.rollout import RolloutEngine
from autolabel.prompts import rollout_prompt
from autolabel.rollouts import (
    FinalAnswer,
    MemoryRolloutCache,
    RolloutSampler,
    grader_version,
    monte_carlo,
)

STEPS = [f"Step {i + 1}: fact number {i}." for i in range(8)]
FIRST_ERROR = 5
STEPS[FIRST_ERROR] = "Step 6: WRONG claim."


def backend(**extra):
    # p=0.9 until the prefix holds the wrong step, then 0.
    return {"kind": "scripted", "rules": [["WRONG", 0.0]], "default": 0.9, **extra}


def solution(steps=STEPS, final_answer="") -> SolutionInput:
    return SolutionInput("Compute the number.", "42", tuple(steps), final_answer)


def scripted(params) -> ScriptedCompleter:
    return completer_from_config(params["backend"], gold="42")


def test_mc_labels_counts_and_evidence() -> None:
    params = {"backend": backend(), "method": "mc", "n": 8, "seed": 3}
    result = RolloutEngine(cache=MemoryRolloutCache())(solution(), params)
    assert result.source == "rollout" and result.agent.startswith("mc:scripted:")
    assert [s.step_index for s in result.suggestions] == list(range(8))
    values = [s.value for s in result.suggestions]
    assert values == [1] * FIRST_ERROR + [-1] * (8 - FIRST_ERROR)
    for s in result.suggestions[:FIRST_ERROR]:
        ev = s.evidence
        assert ev["total"] == 8 and 0 < ev["correct"] <= 8
        assert s.score == ev["correct"] / 8
        assert "boxed{42}" in ev["sample_correct"]
        assert ev["method"] == "mc" and ev["grader"] == grader_version()
        assert ev["completer"] == result.agent.removeprefix("mc:")
        assert ev["sampling"] == {
            "n": 8, "temperature": 0.7, "top_p": 1.0, "max_tokens": 512,
            "stop": ["\n### User:"], "seed": 3,
        }  # fmt: skip
    for s in result.suggestions[FIRST_ERROR:]:
        assert s.evidence["correct"] == 0 and s.score == 0.0
        assert "sample_correct" not in s.evidence and "boxed{-7919}" in s.evidence["sample_wrong"]
    # p = 0.9 over 5 x 8 draws: some failures, mostly successes.
    total_correct = sum(s.evidence["correct"] for s in result.suggestions[:FIRST_ERROR])
    assert 28 <= total_correct < 40
    assert scripted(params).samples == 8 * 8
    assert result.suggestions[0].evidence["solution_rollouts"] == {"sampled": 64, "cached": 0}


def test_mc_is_deterministic_for_a_seed_and_varies_with_it() -> None:
    def counts(seed):
        params = {"backend": backend(), "n": 8, "seed": seed}
        result = RolloutEngine(cache=MemoryRolloutCache())(solution(), params)
        return [s.evidence["correct"] for s in result.suggestions]

    assert counts(1) == counts(1)
    assert any(counts(seed) != counts(1) for seed in (2, 3, 4))


def test_mc_labels_the_last_step_by_the_final_answer() -> None:
    steps = STEPS[:4]
    params = {"backend": backend(), "n": 4}
    right = RolloutEngine(cache=MemoryRolloutCache())(solution(steps, "42"), params)
    assert right.answer_correct is True and right.final_answer == "42"
    last = right.suggestions[-1]
    assert last.value == 1 and last.evidence["method"] == "final_answer"
    assert (last.evidence["correct"], last.evidence["total"]) == (1, 1)
    assert scripted(params).samples == 3 * 4  # the last prefix is not rolled out
    wrong = RolloutEngine(cache=MemoryRolloutCache())(solution(steps, "41"), params)
    assert wrong.answer_correct is False and wrong.suggestions[-1].value == -1
    boxed = [*steps[:3], "So the answer is $\\boxed{42}$."]  # extracted from the steps
    found = RolloutEngine(cache=MemoryRolloutCache())(solution(boxed), params)
    assert found.final_answer == "42" and found.answer_correct is True


@pytest.mark.parametrize("final_answer", ["", "7"])
def test_binary_search_finds_the_first_error_within_budget(final_answer: str) -> None:
    k = 8
    params = {"backend": backend(), "method": "binary_search", "k": k, "seed": 0}
    result = RolloutEngine(cache=MemoryRolloutCache())(solution(final_answer=final_answer), params)
    assert result.agent.startswith("binary_search:scripted:")
    labeled = {s.step_index: s for s in result.suggestions}
    assert sorted(labeled) == list(range(FIRST_ERROR + 1))  # later steps: no suggestion
    assert [labeled[i].value for i in range(FIRST_ERROR)] == [1] * FIRST_ERROR
    error = labeled[FIRST_ERROR]
    assert error.value == -1 and error.evidence["correct"] == 0 and error.evidence["total"] == k
    probed = {p["step"] for p in error.evidence["search"]}
    assert FIRST_ERROR in probed
    for i in range(FIRST_ERROR):
        ev = labeled[i].evidence
        if i in probed:
            assert ev["total"] == k and ev["correct"] > 0 and "inferred" not in ev
        else:
            assert ev["inferred"] is True and ev["total"] is None and labeled[i].score is None
    samples = scripted(params).samples
    assert samples <= k * math.ceil(math.log2(len(STEPS))) + k
    assert samples < k * len(STEPS)
    assert result.suggestions[0].evidence["solution_rollouts"]["sampled"] == samples


def test_binary_search_without_error_labels_every_step_good() -> None:
    clean = [s for s in STEPS if "WRONG" not in s]
    params = {"backend": backend(), "method": "binary_search", "k": 4}
    result = RolloutEngine(cache=MemoryRolloutCache())(solution(clean, "42"), params)
    assert [s.value for s in result.suggestions] == [1] * len(clean)
    assert result.suggestions[-1].evidence["method"] == "final_answer"


def test_second_run_is_served_from_the_cache() -> None:
    cache = MemoryRolloutCache()
    engine = RolloutEngine(cache=cache)
    params = {"backend": backend(), "n": 8}
    first = engine(solution(), params)
    completer = scripted(params)
    assert completer.samples == 64 and len(cache) == 8
    second = engine(solution(), params)
    assert completer.samples == 64  # no new samples
    assert [s.evidence["correct"] for s in second.suggestions] == [
        s.evidence["correct"] for s in first.suggestions
    ]
    assert all(s.evidence["cached"] for s in second.suggestions)
    assert second.suggestions[0].evidence["solution_rollouts"] == {"sampled": 0, "cached": 64}
    # Binary search with k = n reuses the MC rollouts of the prefixes it probes.
    engine(solution(), {**params, "method": "binary_search", "k": 8})
    assert completer.samples == 64
    # Other sampling params are other keys.
    engine(solution(), {**params, "temperature": 1.0})
    assert completer.samples == 128


def test_cached_rollouts_are_regraded_for_another_gold_answer() -> None:
    completer = ScriptedCompleter(lambda prompt: 1.0, "42")
    cache = MemoryRolloutCache()
    prompts = [rollout_prompt("Q", STEPS[:2])]
    params = SamplingParams(n=3)
    first = RolloutSampler(completer, params, gold="42", cache=cache).run(prompts)[0]
    assert first.n_correct == 3
    other = RolloutSampler(completer, params, gold="43", cache=cache).run(prompts)[0]
    assert other.cached and other.n_correct == 0 and completer.samples == 3


def test_cache_can_be_switched_off_and_params_are_checked() -> None:
    engine = RolloutEngine(cache=MemoryRolloutCache())
    params = {"backend": backend(), "n": 2, "cache": False}
    engine(solution(), params)
    engine(solution(), params)
    assert scripted(params).samples == 2 * 2 * 8
    with pytest.raises(ValueError, match="unknown rollout params"):
        engine(solution(), {"backend": backend(), "rollouts": 3})
    with pytest.raises(ValueError, match="method"):
        engine(solution(), {"backend": backend(), "method": "beam"})
    with pytest.raises(ValueError, match="n must be"):
        engine(solution(), {"backend": backend(), "n": 0})
    with pytest.raises(ValueError, match="gold answer"):
        engine(SolutionInput("Q", "", tuple(STEPS)), {"backend": backend()})
    with pytest.raises(ValueError, match="backend kind"):
        engine(solution(), {"backend": {"kind": "magic"}})


def test_monte_carlo_uses_one_completer_call_for_all_prefixes() -> None:
    completer = ScriptedCompleter(lambda prompt: 0.5, "42")
    sampler = RolloutSampler(completer, SamplingParams(n=4), gold="42")
    estimates = monte_carlo(
        STEPS,
        sampler=sampler,
        prompt_for=lambda steps: rollout_prompt("Q", steps),
        final=FinalAnswer(None, None),
    )
    assert len(estimates) == len(STEPS) and completer.calls == 1
    assert completer.prompts_seen[2].endswith(STEPS[2] + "\n")  # continues after step 3


class SilentCompleter:
    """Continues with nothing: only an answer already in the prefix can be graded."""

    id = "silent"
    tokenizer = None

    def complete(self, prompts, *, n, **kwargs):
        return [[""] * n for _ in prompts]


def test_the_prefix_is_graded_with_the_continuation() -> None:
    sampler = RolloutSampler(SilentCompleter(), SamplingParams(n=2), gold="42")
    boxed, plain = sampler.run(
        [rollout_prompt("Q", ["So $\\boxed{42}$."]), rollout_prompt("Q", ["So 42."])]
    )
    assert boxed.correct == (True, True) and plain.correct == (False, False)
