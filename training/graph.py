"""Step dependencies in PRM data (no Django, no torch): reading `uses`, showing them to the
model, and first errors counted along them.

An exported TRL row may carry `uses`: for each step, the earlier steps (0-based indices within
the row) it builds on (labeling's export with `dependency_policy` keep or inherit). Training
can show them to the model (`dependencies: prefix`): each step's text is prefixed with
"[uses 1,3] " (1-based step numbers, as a reader counts them; nothing for a step that uses
none). A PRM trained so must be scored on steps rendered the same way (`with_uses`).

First-error evaluation along dependencies: the answer rests on the last step and, through
`uses`, on the steps it (transitively) builds on: its dependency closure. An error off that
closure (a side computation the answer never uses) does not make the answer wrong. The
dependency first error is the first wrong step *within the closure of the last step*; the
linear one is the first wrong step of the whole row. `training.evaluate stepwise` reports
ProcessBench-style F1 for both. A row without `uses` is a chain (each step uses the one
before), so both agree on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def uses_error(uses: Any, steps: int) -> str | None:
    """Why `uses` is not one list of earlier step indices per step, or None."""
    if not isinstance(uses, list) or len(uses) != steps:
        return f"expected one list of earlier step indices per completion ({steps})"
    for k, entry in enumerate(uses):
        if not isinstance(entry, list):
            return f"uses[{k}]: expected a list of step indices"
        for value in entry:
            if isinstance(value, bool) or not isinstance(value, int):
                return f"uses[{k}]: expected integers, got {value!r}"
            if not 0 <= value < k:
                return f"uses[{k}]: {value} is not an earlier step (0..{k - 1})"
    return None


def uses_prefix(uses: Sequence[int]) -> str:
    """The text put before a step that uses `uses` (0-based): "[uses 1,3] ", or ""."""
    if not uses:
        return ""
    return "[uses " + ",".join(str(k + 1) for k in sorted(set(uses))) + "] "


def with_uses(steps: Sequence[str], uses: Sequence[Sequence[int]] | None) -> list[str]:
    """Step texts as a PRM trained with `dependencies: prefix` reads them."""
    if uses is None:
        return list(steps)
    return [uses_prefix(u) + text for text, u in zip(steps, uses, strict=True)]


def chain(steps: int) -> list[list[int]]:
    """The linear reading: each step uses the one before."""
    return [[k - 1] if k else [] for k in range(steps)]


def closure(uses: Sequence[Sequence[int]], step: int) -> list[int]:
    """`step` and every step it uses, directly or transitively, ascending."""
    seen = {step}
    todo = [step]
    while todo:
        for k in uses[todo.pop()]:
            if k not in seen:
                seen.add(k)
                todo.append(k)
    return sorted(seen)


def first_error(labels: Sequence[bool], within: Sequence[int] | None = None) -> int:
    """The first wrong step (its index), among `within` (ascending) or all steps; -1: none."""
    for k in within if within is not None else range(len(labels)):
        if not labels[k]:
            return k
    return -1


def answer_path(uses: Sequence[Sequence[int]] | None, steps: int) -> list[int]:
    """The steps the last one rests on (its closure); every step for a row without uses."""
    if steps == 0:
        return []
    return closure(uses if uses is not None else chain(steps), steps - 1)
