"""The subgoal checker: failed subgoals and unmet preconditions −1, contradicted successes
flagged, verified subgoals "checks out" evidence exactly as the symbolic engine stores it."""

import pytest

from autolabel.engines.base import CHECKS_OUT, CONTRADICTS_OUTCOME, SolutionInput
from autolabel.engines.subgoal import SubgoalEngine
from autolabel.engines.subgoal_state import State, normalize
from autolabel.registry import ENGINES
from labeling.models import DOMAIN_SOURCES, Domain, sources_for_problem

INITIAL = ["at(robot, table)", "on(mug, table)", "closed(drawer)", "hand_empty"]
GOAL = ["in(mug, drawer)", "closed(drawer)"]


def _step(kind, text="", success=None, pre=None, eff=None):
    meta = {"kind": kind}
    if success is not None:
        meta["success"] = success
    if pre is not None:
        meta["preconditions"] = pre
    if eff is not None:
        meta["effects"] = eff
    return text or kind, meta


def _run(steps, *, outcome=None, goal=GOAL, initial=INITIAL, params=None):
    problem = {"initial_state": initial}
    if goal:
        problem["goal"] = goal
    solution = SolutionInput(
        problem="Put the mug in the drawer.",
        gold_answer="",
        steps=tuple(t for t, _ in steps),
        answer_correct=outcome,
        step_metadata=tuple(m for _, m in steps),
        problem_metadata=problem,
    )
    result = SubgoalEngine()(solution, params or {})
    return result, {s.step_index: s for s in result.suggestions}


GRASP = _step(
    "action",
    "grasp mug",
    True,
    pre=["at(robot, table)", "on(mug, table)", "hand_empty"],
    eff=["holding(mug)", "not on(mug, table)", "not hand_empty"],
)
OPEN = _step(
    "action",
    "open drawer",
    True,
    pre=["closed(drawer)"],
    eff=["open(drawer)", "not closed(drawer)"],
)
PLACE = _step(
    "subgoal",
    "mug in drawer",
    True,
    pre=["holding(mug)", "open(drawer)"],
    eff=["in(mug, drawer)", "hand_empty", "not holding(mug)"],
)
CLOSE = _step(
    "action", "close drawer", True, pre=["open(drawer)"], eff=["closed(drawer)", "not open(drawer)"]
)


def test_a_clean_successful_episode_is_checks_out_evidence_never_a_rating():
    steps = [_step("plan", "grasp, open, place, close"), GRASP, OPEN, PLACE, CLOSE]
    result, by_index = _run(steps, outcome=True)
    assert sorted(by_index) == [1, 2, 3, 4]
    for s in by_index.values():
        # As the symbolic engine stores a verified step: value None, evidence kind "checks out".
        assert s.value is None and s.score is None
        assert s.evidence["kind"] == CHECKS_OUT
        assert s.evidence["check"] == "verified"
    assert by_index[3].evidence["preconditions"] == ["holding(mug)", "open(drawer)"]
    assert result.withdrawn == [0]  # the plan step carries no signal: nothing, stale rows go
    assert result.solution_evidence["subgoal"] == {
        "final_state_reaches_goal": True,
        "outcome": True,
    }


def test_a_subgoal_logged_as_failed_is_minus_one_and_its_effects_do_not_apply():
    failed_grasp = _step(
        "action", "grasp mug", False, pre=GRASP[1]["preconditions"], eff=GRASP[1]["effects"]
    )
    steps = [failed_grasp, OPEN, PLACE]
    _, by_index = _run(steps, outcome=False)
    assert by_index[0].value == -1 and by_index[0].evidence["check"] == "failed"
    # The grasp failed, so the mug is not held: placing it breaks a precondition.
    assert by_index[2].value == -1
    assert by_index[2].evidence["check"] == "precondition"
    assert by_index[2].evidence["unmet"] == ["holding(mug)"]
    assert by_index[1].evidence["kind"] == CHECKS_OUT


def test_an_action_whose_precondition_the_state_does_not_satisfy_is_minus_one():
    place_closed = _step(
        "action",
        "put mug in drawer",
        True,
        pre=["holding(mug)", "open(drawer)"],
        eff=["in(mug, drawer)"],
    )
    steps = [GRASP, place_closed, OPEN]
    _, by_index = _run(steps, outcome=False, goal=None)
    assert by_index[1].value == -1
    assert by_index[1].evidence["unmet"] == ["open(drawer)"]
    assert "not satisfied" in by_index[1].evidence["message"]
    # Its logged success still applies (the mug is in the drawer now); the open is the last
    # signal of a failed episode without a goal: flagged.
    assert by_index[2].evidence["kind"] == CONTRADICTS_OUTCOME


def test_a_negated_precondition_needs_the_predicate_absent():
    steps = [_step("action", "grasp cup", None, pre=["not holding(mug)", "hand_empty"])]
    _, by_index = _run(steps, initial=INITIAL + ["holding(mug)"], goal=None)
    assert by_index[0].value == -1 and by_index[0].evidence["unmet"] == ["not holding(mug)"]
    _, by_index = _run(steps, goal=None)
    assert by_index == {}  # met, and no success signal: nothing to say


def test_a_success_that_reaches_the_goal_in_a_failed_episode_is_flagged():
    steps = [GRASP, OPEN, PLACE, CLOSE]
    _, by_index = _run(steps, outcome=False)
    flagged = by_index[3]  # closing the drawer completes the goal the outcome denies
    assert flagged.value is None
    assert flagged.evidence["kind"] == CONTRADICTS_OUTCOME
    assert "logged as failed" in flagged.evidence["message"]
    assert by_index[2].evidence["kind"] == CHECKS_OUT  # the goal was not reached yet there


def test_without_a_goal_the_last_signal_contradicting_the_outcome_is_flagged():
    steps = [GRASP, _step("observation", "the mug slips"), OPEN]
    _, by_index = _run(steps, outcome=False, goal=None)
    assert by_index[2].evidence["kind"] == CONTRADICTS_OUTCOME
    assert by_index[0].evidence["kind"] == CHECKS_OUT


def test_a_final_failure_in_an_episode_logged_successful_is_flagged_not_rated():
    steps = [GRASP, _step("subgoal", "close drawer", False)]
    _, by_index = _run(steps, outcome=True, goal=None)
    assert by_index[1].value is None and by_index[1].evidence["kind"] == CONTRADICTS_OUTCOME
    # Not the last signal: an ordinary failure (retries happen).
    steps = [_step("action", "grasp mug", False), GRASP]
    _, by_index = _run(steps, outcome=True, goal=None)
    assert by_index[0].value == -1


def test_observations_report_state_that_later_preconditions_use():
    look = _step("observation", "the drawer is open", eff=["open(drawer)", "not closed(drawer)"])
    place = _step("action", "drop the mug in", True, pre=["holding(mug)", "open(drawer)"])
    _, by_index = _run([GRASP, look, place], goal=None, outcome=None)
    assert by_index[2].evidence["kind"] == CHECKS_OUT
    assert 1 not in by_index  # an observation is never rated


def test_no_signal_means_nothing():
    steps = [
        _step("plan", "think"),
        _step("action", "move"),
        _step("observation", "ok"),
        ("free text", {}),
    ]
    result, by_index = _run(steps, outcome=True)
    assert by_index == {}
    assert result.withdrawn == [0, 1, 2, 3]


def test_checks_param_limits_the_verdicts_and_refuses_unknown_ones():
    steps = [_step("action", "grasp", False), GRASP]
    _, by_index = _run(steps, outcome=True, goal=None, params={"checks": ["failed"]})
    assert list(by_index) == [0]
    with pytest.raises(ValueError, match="checks must be"):
        _run(steps, params={"checks": ["nope"]})
    with pytest.raises(ValueError, match="unknown subgoal params"):
        _run(steps, params={"threshold": 1})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Holding( Mug 1 )", (True, "holding(mug 1)")),
        ("at(robot ,  table)", (True, "at(robot,table)")),
        ("not at(robot, table)", (False, "at(robot,table)")),
        ("!open(drawer)", (False, "open(drawer)")),
        ("(holding mug)", (True, "holding mug")),
        ("not not hand_empty", (True, "hand_empty")),
    ],
)
def test_predicates_normalize(text, expected):
    assert normalize(text) == expected


def test_state_ignores_malformed_lists():
    assert State.of("holding(mug)").facts == set()
    assert State.of(["a", 3, "", None]).facts == {"a"}


def test_the_engine_is_registered_for_embodied_projects_only():
    assert isinstance(ENGINES["subgoal"], SubgoalEngine)
    assert DOMAIN_SOURCES[Domain.EMBODIED][0] == "subgoal"
    # A many-domains project offers every domain's sources, and runs subgoal only on its
    # embodied problems (autolabel.run_chunks.sources_for; tests/domains/test_mixed_project.py).
    assert all(
        "subgoal" not in sources
        for d, sources in DOMAIN_SOURCES.items()
        if d not in (Domain.EMBODIED, Domain.MIXED)
    )
    assert sources_for_problem("text", Domain.MIXED) == DOMAIN_SOURCES[Domain.TEXT]


def test_the_measured_precision_on_the_demo_episodes(tmp_path):
    """The numbers docs/benchmarks.md and docs/admins.md report, from the label-quality
    harness on the demo's labeled files (labels by the checker's author: see the docs)."""
    from autolabel.quality.harness import evaluate
    from labeling.management.commands.load_demo import DEMO_DIR, _with_inline_images

    written = _with_inline_images(DEMO_DIR / "embodied_demo.jsonl", tmp_path)
    report = evaluate([written, DEMO_DIR / "alfworld_react_demo.jsonl"], ["subgoal"])
    by_file = report["results"]["subgoal"]["by_data"]
    mine, real = by_file["embodied_demo.jsonl"], by_file["alfworld_react_demo.jsonl"]
    assert (mine["known_steps"], round(mine["base_rate"] * 48)) == (48, 37)
    assert mine["verdicts"]["-1"] == {"n": 7, "right": pytest.approx(4 / 7)}
    assert mine["neg"]["recall"] == pytest.approx(4 / 11)
    assert mine["verdicts"]["checks out"]["n"] == 23
    assert mine["verdicts"]["checks out"]["right"] == pytest.approx(21 / 23)
    assert mine["verdicts"]["contradicts outcome"] == {
        "n": 3,
        "right": 0.0,
        "margin": pytest.approx(-37 / 48),
    }
    assert real["known_steps"] == 165
    assert real["verdicts"]["-1"] == {"n": 2, "right": 0.0}
    assert real["verdicts"]["checks out"]["n"] == 65
