"""Issue 25, round 14: precision fixes no row was tuned on.

- The solving kind decides a derivation's two equations under every reading of the four sides
  (readings.decide_sides), as the two-sided kinds do: ``x^2 = -3^2`` read as ``(-3)^2``
  is ``x^2 = 9``, so ``x^2 - 9 = 0`` follows and is not refuted.
- A block of equations joined to the next block ("becomes", an operation named, within a step
  or opening it) is paired item by item; blocks of different lengths pair nothing (the last
  equation of one block was paired with the first of the next).
"""

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import failed_kinds


def test_solving_is_refuted_only_under_every_reading():
    for text in (
        r"We have $x^2 = -3^2$. Solving, $x^2 - 9 = 0$.",
        r"We have $x^2 = -3^2$, so $x^2 + 9 = 0$.",
    ):
        verdict = check_step(text, timeout_s=5.0)
        assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
        assert [c.holds for c in verdict.claims if c.kind == "solving"] == [None]
    assert failed_kinds(r"We have $x^2 = -3^2$, so $x^2 - 8 = 0$.") == {"solving"}
    assert failed_kinds(r"We have $2x + 1 = 7$, so $2x = 5$.") == {"solving"}
