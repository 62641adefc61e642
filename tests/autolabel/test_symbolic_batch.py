"""The symbolic engine checks a solution's steps in groups, one trip to a checker worker per
group (autolabel/symbolic/batch.py), and gives exactly the verdicts step-by-step checking gives:
a step that overruns is unknown on its own, and a group whose worker dies is checked again step
by step."""

import time

import pytest

from autolabel import timeouts
from autolabel.symbolic import batch
from autolabel.symbolic.batch import GROUP_STEPS, check_steps, check_steps_local
from autolabel.symbolic.check import check_step
from autolabel.symbolic.verdicts import REFUTED, UNKNOWN, VERIFIED

STEPS = [
    "Let $x$ be the number of apples.",
    "Then $52 - 8 = 44$.",
    "So $44 + 4 = 49$.",  # false
    "Since $x = 3$, we get $2x + 1 = 7$.",
    "The total is $3 \\times 12 = 36$ dollars.",
    "Half of that is $36 / 2 = 17$.",  # false
    "If $y = 5$ then $y^2 = 25$.",
    "So the answer is $\\boxed{36}$.",
]


def _shape(verdicts):
    return [(v.verdict, sorted(c.kind for c in v.failed), v.note) for v in verdicts]


def test_the_same_verdicts_as_step_by_step():
    steps = STEPS * 3  # 24 steps: two groups
    one_by_one = [
        check_step(text, previous_steps=steps[:i], problem="How many?")
        for i, text in enumerate(steps)
    ]
    assert _shape(check_steps(steps, problem="How many?")) == _shape(one_by_one)
    assert {v.verdict for v in one_by_one} >= {REFUTED, VERIFIED}


def test_one_trip_per_group(monkeypatch):
    trips = []
    real = timeouts.call_with_time_limit

    def counted(func, *args, **kwargs):
        trips.append(func.__name__)
        return real(func, *args, **kwargs)

    monkeypatch.setattr(timeouts, "call_with_time_limit", counted)
    steps = (STEPS * 3)[: GROUP_STEPS + 4]
    assert len(check_steps(steps)) == len(steps)
    assert trips == ["check_steps_local", "check_steps_local"]
    assert check_steps([]) == []


def test_a_group_whose_worker_is_killed_is_checked_step_by_step(monkeypatch):
    real = timeouts.call_with_time_limit

    def stuck_groups(func, *args, **kwargs):
        if func is check_steps_local:
            raise timeouts.TimeLimitExceeded("hard limit")
        return real(func, *args, **kwargs)

    monkeypatch.setattr(timeouts, "call_with_time_limit", stuck_groups)
    expected = [check_step(t, previous_steps=STEPS[:i]) for i, t in enumerate(STEPS)]
    assert _shape(check_steps(STEPS)) == _shape(expected)


def test_a_step_that_overruns_is_unknown_alone(monkeypatch):
    """In the worker each step has its own soft limit (run here, in the main thread)."""
    real = batch.check_step_local

    def slow_third(text, previous, problem, timeout_s):
        if text == STEPS[2]:
            time.sleep(5)
        return real(text, previous, problem, timeout_s)

    monkeypatch.setattr(batch, "check_step_local", slow_third)
    started = time.monotonic()
    verdicts = check_steps_local(STEPS, 1, None, 0.5)
    assert time.monotonic() - started < 4
    assert len(verdicts) == len(STEPS) - 1
    assert (verdicts[1].verdict, verdicts[1].note) == (UNKNOWN, "time limit of 0.5 s exceeded")
    assert verdicts[0].verdict == VERIFIED and verdicts[4].verdict == REFUTED


@pytest.mark.parametrize("start", [0, 3, len(STEPS)])
def test_local_checks_from_start(start):
    assert len(check_steps_local(STEPS, start, None, 2.0)) == len(STEPS) - start


def test_a_solutions_checks_share_one_budget(monkeypatch):
    """Every group takes well under its own hard limit; together they pass the item's budget
    (AUTOLABEL_LIMITS["check_item_s"]): the item is skipped in words, not checked for days."""
    from autolabel.errors import ItemSkipped
    from autolabel.limits import DEFAULTS

    assert DEFAULTS["check_item_s"] == batch.CHECK_ITEM_S
    real, trips = timeouts.call_with_time_limit, []

    def slow(func, *args, **kwargs):
        trips.append(kwargs["timeout_s"])
        time.sleep(0.6)
        return real(func, *args, **kwargs)

    monkeypatch.setattr(timeouts, "call_with_time_limit", slow)
    steps = STEPS * 8  # 64 steps: four groups
    started = time.monotonic()
    with pytest.raises(ItemSkipped, match=r"^skipped: over budget: its checks took more than 1 s"):
        check_steps(steps, timeout_s=2.0, item_s=1.0)
    assert time.monotonic() - started < 2.5 and len(trips) == 2
    assert trips[1] < 1.0  # the second group's hard limit: what was left, not 16 × 2 s
    assert len(check_steps(steps, timeout_s=2.0)) == len(steps)  # no budget: all four
