"""One item's wall-clock budget, shared by every engine that may spend long on one solution.

An engine makes one ItemDeadline per item, named after the AUTOLABEL_LIMITS key that bounds it
(``code_item_s``: the sandboxed runs, ``check_item_s``: the symbolic checks,
``rollout_item_s``: the rollouts, ``judge_item_s``: the judge's votes). Every blocking call under
it (a sandboxed run, a group of checks, a model server request, a local generate) is given at
most what is left (:meth:`ItemDeadline.cut`), and once nothing is, or a call ran out of the time
the deadline cut, the item is skipped: :meth:`ItemDeadline.spent` is the ItemSkipped whose
message ("skipped: over budget: ...") the run stores as the item's failure. ``seconds=None``
is no budget (a caller outside a run).
"""

from __future__ import annotations

import math
import time

from autolabel.errors import ItemSkipped


class ItemDeadline:
    """``seconds`` of wall time from now for one item's ``spending`` (words for the failure:
    "its rollouts"), counted against AUTOLABEL_LIMITS[``limit``]."""

    def __init__(self, seconds: float | None, *, limit: str, spending: str) -> None:
        self.seconds, self.limit, self.spending = seconds, limit, spending
        self.at = None if seconds is None else time.monotonic() + seconds

    def spent(self) -> ItemSkipped:
        """The item's failure once the budget is gone."""
        what = f"{self.spending} took more than {self.seconds:.15g} s together"
        return ItemSkipped.over_budget(self.limit, what)

    def remaining(self) -> float:
        """Seconds left (≤ 0 once spent; infinite without a budget)."""
        return math.inf if self.at is None else self.at - time.monotonic()

    def left(self) -> float:
        """Seconds left; raises :meth:`spent` when none are."""
        remaining = self.remaining()
        if remaining <= 0:
            raise self.spent()
        return remaining

    def wait_s(self) -> float | None:
        """What is left as a blocking wait's timeout (None: no budget, wait as long as it
        takes); raises :meth:`spent` when nothing is."""
        left = self.left()
        return None if math.isinf(left) else left

    def check(self) -> None:
        """Raises :meth:`spent` when the budget is gone."""
        self.left()

    def cut(self, timeout_s: float) -> float:
        """One call's timeout: ``timeout_s`` cut to what is left; raises :meth:`spent` when
        nothing is."""
        return min(timeout_s, self.left())

    def raise_if_cut(self, timed_out: bool, given: float, timeout_s: float) -> None:
        """A call that timed out on a timeout this deadline cut (``given`` < ``timeout_s``)
        ran out of the item's budget, not of its own: raises :meth:`spent`."""
        if timed_out and given < timeout_s:
            raise self.spent()
