"""A solution's steps checked in a few trips to a checker worker, not one trip per step.

Each trip to a worker (autolabel.timeouts) is two process wake-ups, and with every core busy (an
auto-label run on all its worker processes) each wake-up waits for a core: per step, that cost
the run a good part of what a second process could add. So the steps go in groups of
``GROUP_STEPS``: the worker checks them one after the other, each under its own soft limit of
``timeout_s`` (a step that overruns is unknown, "time limit ... exceeded", as alone), and the
group's hard limit is the sum of its steps' plus ``GROUP_SLACK_S``. When the hard limit kills the
worker (work a signal could not interrupt) or the worker fails, the group is checked again step
by step, each under its own hard limit as before, so no step's verdict depends on its group.
"""

from __future__ import annotations

from collections.abc import Sequence

from autolabel import timeouts
from autolabel.deadline import ItemDeadline
from autolabel.symbolic.check import check_step, check_step_local
from autolabel.symbolic.verdicts import StepVerdict, unknown

GROUP_STEPS = 16  # steps per trip: a stuck group costs at most 16 step budgets before the retry
GROUP_SLACK_S = 2.0
# Wall seconds of one solution's checks together (AUTOLABEL_LIMITS["check_item_s"]): 20,000
# imported steps that each use their whole timeout would hold a worker for days.
CHECK_ITEM_S = 300.0


def check_steps_local(
    steps: Sequence[str], start: int, problem: str | None, timeout_s: float
) -> list[StepVerdict]:
    """The verdicts of ``steps[start:]`` (the steps before are their context), in this
    process, each under a soft limit of ``timeout_s``."""
    verdicts = []
    for index in range(start, len(steps)):
        try:
            with timeouts.soft_time_limit(timeout_s):
                verdict = check_step_local(steps[index], steps[:index], problem, timeout_s)
        except timeouts.TimeLimitExceeded:
            verdict = unknown(f"time limit of {timeout_s:g} s exceeded")
        except Exception as exc:  # noqa: BLE001 - one step's failure is that step's verdict
            verdict = unknown(f"checker failed: {type(exc).__name__}: {exc}")
        verdicts.append(verdict)
    return verdicts


def check_steps(
    steps: Sequence[str],
    *,
    problem: str | None = None,
    timeout_s: float = 2.0,
    item_s: float | None = None,
) -> list[StepVerdict]:
    """One verdict per step of ``steps`` (each checked with the steps before it as context),
    as :func:`check_step` would give each, in ``ceil(len / GROUP_STEPS)`` trips. ``item_s``
    bounds them together (a group's hard limit cut to what is left; a step checked alone after
    a lost group may pass it by its own ``timeout_s``): past it, ItemSkipped, no verdicts."""
    steps = tuple(steps)
    deadline = ItemDeadline(item_s, limit="check_item_s", spending="its checks")
    verdicts: list[StepVerdict] = []
    for start in range(0, len(steps), GROUP_STEPS):
        end = min(start + GROUP_STEPS, len(steps))
        limit = timeout_s * (end - start) + GROUP_SLACK_S
        given = deadline.cut(limit)
        try:
            verdicts += timeouts.call_with_time_limit(
                check_steps_local,
                steps[:end],
                start,
                problem,
                timeout_s,
                timeout_s=given,
            )
        except (timeouts.TimeLimitExceeded, timeouts.WorkerError) as exc:
            # A hard limit the budget cut: the item is past its budget (not a stuck group).
            deadline.raise_if_cut(isinstance(exc, timeouts.TimeLimitExceeded), given, limit)
            for i in range(start, end):
                deadline.check()
                verdicts.append(
                    check_step(
                        steps[i], previous_steps=steps[:i], problem=problem, timeout_s=timeout_s
                    )
                )
    return verdicts
