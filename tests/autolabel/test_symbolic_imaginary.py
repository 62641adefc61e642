# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Complex arithmetic with the imaginary unit (issue 25, symbolic-1.9): where the step or the
problem is about complex numbers, a claim whose only symbol is ``i`` is decided with i the
imaginary unit (autolabel/symbolic/imaginary.py), keeping the kind of a number claim. Texts
marked with a ProcessBench id are exact copies from the develop part of
shared/data/processbench_dev.jsonl (autolabel/quality/dev_split.py)."""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.imaginary import imaginary_setting

COMPLEX = "Let $z$ be a complex number with $z = 2 + i$."
SOLVE = "Solve for $z$ in the following equation: $2-3iz = 3 + 2iz$."  # math-443
PRODUCT = "Let $i=\\sqrt{-1}$. The complex number $z=-142+333 \\sqrt{5} i$ can be expressed as a product of two complex numbers in multiple different ways, two of which are $(57-8 \\sqrt{5} i)(-6+5 \\sqrt{5} i)$ and $(24+\\sqrt{5} i)(-3+14 \\sqrt{5} i)$."  # olympiadbench-670

# (kind, problem, step) that must be refuted
REFUTED = [
    ("arithmetic", COMPLEX, "$(2 + i)(2 - i) = 3$"),
    ("arithmetic", COMPLEX, "$|3 + 4i| = 7$"),
    ("chain", COMPLEX, "$(1+i)^2 = 1 + 2i + i^2 = 2 + 2i$"),
    # math-443, step 2 (the first error): 1/(-5i) is i/5
    (
        "chain",
        SOLVE,
        "Third, solve for \\(z\\). To isolate \\(z\\), divide both sides by \\(-5i\\):\n\\[ z = \\frac{1}{-5i} \\]\nTo simplify this further, we can multiply the numerator and the denominator by the conjugate of the denominator to get rid of the imaginary unit in the denominator:\n\\[ z = \\frac{1}{-5i} \\cdot \\frac{-i}{-i} = \\frac{-i}{25} \\]\nThis simplifies to:\n\\[ z = -\\frac{i}{25} \\]",
    ),
    # olympiadbench-670, step 3 (the first error): -8√5 i · 5√5 i is +200
    (
        "chain",
        PRODUCT,
        "First, for the factorization \\((57 - 8\\sqrt{5}i)(-6 + 5\\sqrt{5}i)\\):\n\\[ (57 - 8\\sqrt{5}i)(-6 + 5\\sqrt{5}i) = 57(-6) + 57(5\\sqrt{5}i) - 8\\sqrt{5}i(-6) - 8\\sqrt{5}i(5\\sqrt{5}i) = -342 + 285\\sqrt{5}i + 48\\sqrt{5}i - 200 = -542 + 333\\sqrt{5}i. \\]\nThis does not match our original \\(z\\), so we discard this factorization.",
    ),
]

# (problem, step): true, hedged, rounded, an index or a variable named i: never refuted
NOT_REFUTED = [
    (COMPLEX, "$(2 + i)(2 - i) = 5$ and $|3 + 4i| = 5$"),
    (COMPLEX, "$i^2 = -1$ so $(1+i)^2 = 2i$ and $(1+i)/(1-i) = i$"),
    (COMPLEX, "$(1+i)^2 = 1 + 2i + i^2 = 2i$"),
    (COMPLEX, "$i = 3$"),  # an assignment
    (COMPLEX, "If $(2 + i)(2 - i) = 3$, then something is wrong."),
    (COMPLEX, r"$1.5i \cdot 2 = 3.01i$"),
    ("Let $a_i$ be complex numbers.", "$(2 + i)(2 - i) = 3$"),  # i is an index
    ("Let $x = 3$.", "$(2 + i)(2 - i) = 3$"),  # no complex setting: i may be a variable
    ("For each $i$, the complex number $w_i$ ...", "$2i + 1 = 7$"),
    # olympiadbench-670, step 1 (correct): expansions with other symbols are not read here
    (
        PRODUCT,
        "The product \\((a + b\\sqrt{5}i)(c + d\\sqrt{5}i)\\) expands to:\n\\[ (a + b\\sqrt{5}i)(c + d\\sqrt{5}i) = ac + ad\\sqrt{5}i + bc\\sqrt{5}i + bd(5i^2) = ac + (ad + bc)\\sqrt{5}i - 5bd. \\]\nThis simplifies to:\n\\[ (ac - 5bd) + (ad + bc)\\sqrt{5}i. \\]\nWe need this to equal \\(-142 + 333\\sqrt{5}i\\). Therefore, we have the system of equations:\n\\[ ac - 5bd = -142, \\]\n\\[ ad + bc = 333. \\]",
    ),
]


@pytest.mark.parametrize(("kind", "problem", "step"), REFUTED)
def test_false_complex_arithmetic_is_refuted(kind: str, problem: str, step: str) -> None:
    verdict = check_step(step, problem=problem)
    assert verdict.verdict == "refuted", [(c.kind, c.text, c.reason) for c in verdict.claims]
    assert kind in {c.kind for c in verdict.failed}
    assert all("imaginary unit" in c.reason for c in verdict.failed)


@pytest.mark.parametrize(("problem", "step"), NOT_REFUTED)
def test_true_or_unclear_complex_claims_are_not_refuted(problem: str, step: str) -> None:
    verdict = check_step(step, problem=problem)
    assert verdict.verdict != "refuted", [(c.kind, c.text, c.reason) for c in verdict.failed]


def test_a_true_complex_claim_is_verified() -> None:
    assert check_step("$(2 + i)(2 - i) = 5$", problem=COMPLEX).verdict == "verified"


@pytest.mark.parametrize(
    ("step", "problem", "setting"),
    [
        ("x", COMPLEX, True),
        ("x", PRODUCT, True),
        ("the conjugate of the denominator", "Solve $2 - 3iz = 3$.", True),
        ("x", "Let $i^2 = -1$.", True),
        ("x", "Let $x = 3$.", False),
        ("x", r"Find $\sum_{i=1}^{10} z_i$ for complex $z$.", False),
        ("for $1 \\le i \\le n$", COMPLEX, False),
        ("for i from 1 to 4", COMPLEX, False),
        ("the $i$-th root", COMPLEX, False),
    ],
)
def test_the_setting(step: str, problem: str, setting: bool) -> None:
    assert imaginary_setting(step, problem) is setting
