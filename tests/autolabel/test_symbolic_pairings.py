"""Issue 25, round 15: precision fixes no row was tuned on.

- The solving kind decides a derivation's two equations under every reading of the four sides
  (readings.decide_sides), as the two-sided kinds do: ``x^2 = -3^2`` read as ``(-3)^2``
  is ``x^2 = 9``, so ``x^2 - 9 = 0`` follows and is not refuted.
- A block of equations joined to the next block ("becomes", an operation named, within a step
  or opening it) is paired item by item; blocks of different lengths pair nothing (the last
  equation of one block was paired with the first of the next).
"""

from autolabel.symbolic import check_step, check_step_local
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop, failed_kinds


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


SYSTEM = "\\[x + y = 3\\]\n\\[2x - 2y = 2\\]\n"
SOLVED = "\\[y = 3 - x\\]\n\\[y = x - 1\\]"
SOLVED_WRONG = "\\[y = 3 - x\\]\n\\[y = x + 1\\]"


def _claims(verdict, kind):
    return [(c.holds, c.text) for c in verdict.claims if c.kind == kind]


def test_blocks_joined_within_a_step_pair_item_by_item():
    for words, kind in (
        ("which simplifies to\n", "rewriting"),
        ("Rearranging, we get\n", "rearranging"),
    ):
        verdict = check_step(SYSTEM + words + SOLVED, timeout_s=5.0)
        assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
        assert [holds for holds, _ in _claims(verdict, kind)] == [True, True]
        failed = check_step(SYSTEM + words + SOLVED_WRONG, timeout_s=5.0).failed
        assert [c.kind for c in failed] == [kind]
        assert "y = x + 1" in failed[0].text and "2x - 2y = 2" in failed[0].text


def test_a_step_opening_with_an_operation_pairs_the_blocks_item_by_item():
    before = "The equations are\n" + SYSTEM
    verdict = check_step_local("Rearranging, we get:\n" + SOLVED, (before,))
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
    assert [holds for holds, _ in _claims(verdict, "rearranging")] == [True, True]
    failed = check_step_local("Rearranging, we get:\n" + SOLVED_WRONG, (before,)).failed
    assert [(c.kind, "y = x + 1" in c.text) for c in failed] == [("rearranging", True)]


def test_blocks_of_different_lengths_pair_nothing():
    step = "\\[2x + 2y = 6\\]\n\\[x - y = 1\\]\nwhich simplifies to\n\\[x + y = 3\\]"
    assert _claims(check_step(step, timeout_s=5.0), "rewriting") == []
    step = "Rearranging, we get:\n\\[y = 3 - x\\]"
    assert _claims(check_step_local(step, ("The equations are\n" + SYSTEM,)), "rearranging") == []
    # one equation each side still pairs
    one = check_step_local("Rearranging, we get:\n\\[y = 4 - x\\]", (r"So \(x + y = 3\).",))
    assert [c.kind for c in one.failed] == ["rearranging"]


def test_one_equation_becomes_the_first_of_a_derivation_after_it():
    # develop olympiadbench-194 step 3 and olympiadbench-219 step 3 (first errors): the
    # displays after the words are a derivation, not a system
    assert_develop({"olympiadbench-194", "olympiadbench-219"})
    step = (
        "Expanding both sides, we get:\n\\[\n33+14b+b^{2}=25+10b+b^{2}\n\\]\n"
        "Simplifying, we get:\n\\[\n8=4b-4b\n\\]\n\\[\n8=-4\n\\]"
    )
    assert "rearranging" in (failed_kinds(step) or set())
    before = "Substituting, we get:\n\\[r^2 - r = 3 - r^2\\]"
    step = "Rearranging the terms, we obtain:\n\\[r^2 + r^2 - r + r = 3\\]\n\\[2r^2 = 3\\]"
    failed = check_step_local(step, (before,)).failed
    assert "rearranging" in {c.kind for c in failed}
