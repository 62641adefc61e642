"""Error propagation along step dependencies (pure): `dependency_policy=inherit`.

A step that uses a step rated -1, directly or through other steps, is exported as -1 and
flagged `inherited`: its reasoning rests on a wrong step, whatever its own rating said. Steps
only use earlier steps, so one pass in index order sees every dependency's final rating.
An unrated step inherits too (it is built on a wrong step); its soft label becomes 0.
"""

from collections.abc import Sequence

from .records import StepRecord


def inherit_errors(steps: Sequence[StepRecord]) -> int:
    """Apply the policy to one record's steps in place; the number of steps it changed."""
    wrong: set[int] = set()
    changed = 0
    for step in steps:
        if step.rating == -1:
            wrong.add(step.index)
        elif step.uses and not wrong.isdisjoint(step.uses):
            step.rating, step.soft, step.inherited = -1, 0.0, True
            wrong.add(step.index)
            changed += 1
    return changed
