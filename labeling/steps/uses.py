"""Which earlier steps a step uses, chosen among several people's marks (pure).

An annotator's marks (StepLabel.uses) replace the step's own (`Step.uses`, imported or
detected) for that annotator; None means they did not mark the step. Where several marked it,
the export (labeling.exporters.labels) and a resolution made from agreeing or accepted
annotations (labeling.services.review.resolutions) take the same set: the one most of them gave.
"""

from collections import Counter
from collections.abc import Iterable, Sequence


def majority_uses(marks: Iterable[Sequence[int] | None]) -> list[int] | None:
    """The set most of those who marked the step gave (a tie: the first given of the most
    given), or None when nobody marked it."""
    given = [tuple(m) for m in marks if m is not None]
    if not given:
        return None
    counts = Counter(given)
    top = max(counts.values())
    return list(next(m for m in given if counts[m] == top))
