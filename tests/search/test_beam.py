r"""Beam search on a scripted tree: it finds the known best path, counts tokens exactly, and
compares with best-of-N / majority vote at equal generated tokens."""

import pytest

from autolabel.search import SearchConfig, SearchProblem, beam_search, compare, final_answer

from .scripted import TableScorer, TreePolicy

PROBLEM = "What is 3 + 4?"
ANSWER_7 = r"So the answer is $\boxed{7}$."
ANSWER_5 = r"The final answer is 5"
ANSWER_8 = r"Thus \boxed{8}."
TREE = {
    (): ["a1", "b1", "c1"],
    ("a1",): ["a2", "x2", "y2"],
    ("a1", "a2"): [ANSWER_5, "z3", "w3"],
    ("b1",): ["b2", "b3", "b1 again"],
    ("b1", "b2"): [ANSWER_7, "q3", "r3"],
    ("b1", "b3"): [ANSWER_8, "s3", "t3"],
}
SCORES = {
    "a1": 0.9, "b1": 0.8, "c1": 0.1,
    "a2": 0.3, "x2": 0.2, "y2": 0.1,
    ANSWER_5: 0.7, "z3": 0.2, "w3": 0.1,
    "b2": 0.95, "b3": 0.4, "b1 again": 0.05,
    ANSWER_7: 0.99, "q3": 0.5, "r3": 0.2,
    ANSWER_8: 0.6, "s3": 0.3, "t3": 0.1,
}  # fmt: skip


def chars(text: str) -> int:
    return len(text)


def cost(prefix: tuple[str, ...]) -> int:
    """What expanding `prefix` costs: each child's characters, +1 for the "\n" it stopped at."""
    return sum(len(c) + (0 if final_answer(c) else 1) for c in TREE[prefix])


def test_final_answer_needs_an_answer_marker():
    assert final_answer(ANSWER_7) == "7"
    assert final_answer(ANSWER_5) == "5"
    assert final_answer("#### 12") == "12"
    assert final_answer("The answer is not obvious yet") is None
    assert final_answer("b2") is None


def test_beam_search_finds_the_best_path_and_counts_every_token():
    policy, scorer = TreePolicy(PROBLEM, TREE, []), TableScorer(SCORES)
    config = SearchConfig(beam_width=2, expansions=3, max_depth=5)
    result = beam_search(PROBLEM, policy, scorer, config, count_tokens=chars)
    assert result.best.steps == ["b1", "b2", ANSWER_7]
    assert result.answer == "7"
    assert result.best.scores == [0.8, 0.95, 0.99]
    expanded = [(), ("a1",), ("b1",), ("b1", "b2"), ("b1", "b3")]
    assert policy.expanded == expanded
    assert result.tokens == sum(cost(p) for p in expanded)
    assert result.samples == 15
    assert result.depth == 3
    assert sorted(b.answer for b in result.finished) == ["7", "8"]
    # the PRM saw the problem and each whole prefix
    assert scorer.calls[1][0] == (PROBLEM, ["a1", "a2"])


def test_greedy_search_is_led_astray_by_the_first_step():
    policy = TreePolicy(PROBLEM, TREE, [])
    config = SearchConfig(beam_width=1, expansions=3, max_depth=5)
    result = beam_search(PROBLEM, policy, TableScorer(SCORES), config, count_tokens=chars)
    assert result.best.steps == ["a1", "a2", ANSWER_5]
    assert result.tokens == cost(()) + cost(("a1",)) + cost(("a1", "a2"))


def test_the_aggregation_decides_which_path_wins():
    # b1 is weak (0.25) but b2 and the answer after it are strong: by the last step the b path
    # wins; by the weakest step the a path (0.9, 0.3, ...) does.
    scores = {**SCORES, "b1": 0.25}

    def run(aggregate: str):
        config = SearchConfig(beam_width=2, expansions=3, max_depth=5, aggregate=aggregate)
        policy = TreePolicy(PROBLEM, TREE, [])
        return beam_search(PROBLEM, policy, TableScorer(scores), config, count_tokens=chars)

    last, low, product = run("last"), run("min"), run("product")
    assert last.best.steps == ["b1", "b2", ANSWER_7]
    assert last.best.value == 0.99
    assert low.best.steps == ["a1", "a2", ANSWER_5]
    assert low.best.value == 0.3
    assert product.best.value == pytest.approx(max(0.9 * 0.3 * 0.7, 0.25 * 0.95 * 0.99))


def test_max_depth_stops_and_duplicates_are_scored_once():
    tree = {(): ["s", "s", "s"], ("s",): ["s", "s", "s"], ("s", "s"): ["s"] * 3}
    policy, scorer = TreePolicy(PROBLEM, tree, []), TableScorer({})
    result = beam_search(
        PROBLEM, policy, scorer, SearchConfig(beam_width=2, expansions=3, max_depth=2),
        count_tokens=chars,
    )  # fmt: skip
    assert result.depth == 2 and result.answer is None
    assert result.best.steps == ["s", "s"]
    assert [len(call) for call in scorer.calls] == [1, 1]
    assert result.tokens == 12  # 6 continuations of "s" + "\n"


def test_a_scorer_giving_the_wrong_number_of_scores_is_an_error():
    with pytest.raises(ValueError, match="scores for"):
        beam_search(
            PROBLEM, TreePolicy(PROBLEM, TREE, []), lambda items: [[0.5] for _ in items],
            SearchConfig(beam_width=2, expansions=3, max_depth=5), count_tokens=chars,
        )  # fmt: skip


def test_compare_spends_equal_tokens_on_the_baselines():
    # whole solutions: two wrong ones with an answer that wins the vote, one right one
    solutions = ["a1\nx2\n" + ANSWER_5, "c1\nz3\n" + ANSWER_5, "b1\nb2\n" + ANSWER_7]
    policy = TreePolicy(PROBLEM, TREE, solutions)
    config = SearchConfig(beam_width=2, expansions=3, max_depth=5)
    report = compare(
        [SearchProblem("p1", PROBLEM, "7")], policy, TableScorer(SCORES), config,
        count_tokens=chars, grade=lambda answer, gold: answer == gold, token_counter="chars",
    )  # fmt: skip
    row = report["rows"][0]
    budget = row["beam"]["tokens"]
    assert budget == sum(cost(p) for p in [(), ("a1",), ("b1",), ("b1", "b2"), ("b1", "b3")])
    # drawn in order until the budget is reached, never past it by more than one solution
    lengths = [len(solutions[i % 3]) for i in range(row["n"])]
    assert sum(lengths) == row["baseline_tokens"] >= budget
    assert sum(lengths[:-1]) < budget
    assert row["beam"]["correct"] and row["best_of_n"]["correct"]
    assert row["best_of_n"]["answer"] == "7"  # the PRM ranks b1, b2, 7 first (last: 0.99)
    assert row["majority"] == {"answer": "5", "correct": False}
    assert report["accuracy"] == {"beam": 1.0, "best_of_n": 1.0, "majority": 0.0, "pass@n": True}
    assert report["tokens"] == {"beam": budget, "baseline": row["baseline_tokens"]}
    assert report["token_counter"] == "chars"
