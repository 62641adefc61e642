"""Per step of the review page: where the humans disagree with each other, and which machine
sources (symbolic, rollouts, judge, prm, ...) gave a value some submitted human rating differs
from. Pure functions over what the detail selector already loaded; no query."""

from collections.abc import Iterable

# Suggestion sources that are not machines: an imported label is a data set's (human) label.
NOT_MACHINE = frozenset({"import"})


def step_marks(
    *, human_ratings: Iterable[int | None], machine_values: Iterable[tuple[str, int | None]]
) -> dict:
    """`human_ratings`: the step's ratings in submitted annotations (None: not rated, left out);
    `machine_values`: (source, value) of its suggestions (None: the source gave no value;
    imported labels, NOT_MACHINE, are left out).

    `humans_differ`: two submitted ratings differ. `machine_differs`: the sources (sorted, once
    each) with a value that differs from at least one submitted rating; none when no human
    rated the step (nothing to disagree with).
    """
    rated = {r for r in human_ratings if r is not None}
    differs = sorted(
        {
            source
            for source, value in machine_values
            if value is not None and source not in NOT_MACHINE and rated - {value}
        }
    )
    return {"humans_differ": len(rated) > 1, "machine_differs": differs}
