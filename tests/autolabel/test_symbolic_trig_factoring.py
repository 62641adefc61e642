# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Readings added in symbolic-1.5 (issue 25, round 3), each right by construction:

* trigonometric functions of angles in numbers (degrees or multiples of pi): exact values,
  kind arithmetic/chain like any number (autolabel/symbolic/trig.py);
* "3!5!" is a product of factorials (the denominators of binomial coefficients);
* a factorization announced in words and written as an equation is an identity (kind
  rewriting, autolabel/symbolic/factorings.py);
* a plain-text root sign "√169" takes the whole number (it took one digit and left "69"),
  or a parenthesis, and is not read before an operator ("√16 + 9");
* degrees over degrees is a ratio, not an angle (a misreading found on a MATH reference
  solution, shared/data/math500_sample.jsonl, test/geometry/686.json).

Texts with a ProcessBench id are exact copies of steps from the develop part of
shared/data/processbench_dev.jsonl (test_rows_are_develop checks the part): the false ones
are first errors, the true ones correct steps or true claims.
"""

import pytest

from autolabel.symbolic import check_step
from tests.autolabel.develop_rows import assert_develop, failed_kinds

MATH_228_0 = r"To simplify \(\cos 10^\circ \cos 30^\circ \cos 50^\circ \cos 70^\circ\), we start by using the known value of \(\cos 30^\circ\): \[ \cos 30^\circ = \frac{\sqrt{3}}{2} \] Thus, the expression becomes: \[ \cos 10^\circ \cos 30^\circ \cos 50^\circ \cos 70^\circ = \cos 10^\circ \cdot \frac{\sqrt{3}}{2} \cdot \cos 50^\circ \cdot \cos 70^\circ \]"
MATH_228_6 = r"We use another identity to simplify \(\frac{\sqrt{3}}{4} \cos 40^\circ\): \[ \cos 40^\circ = \sin (90^\circ - 40^\circ) = \sin 50^\circ \] However, this approach does not immediately simplify further. Instead, we use a known result for the product of cosines at specific angles: \[ \cos 10^\circ \cos 50^\circ \cos 70^\circ = \frac{1}{8} \]"
MATH_467_3 = r"Using the identity for the product of cosines of angles that are multiples of \(\frac{2\pi}{n}\), specifically for \(n=7\), we have: \[ \prod_{k=1}^{6} \cos \frac{k\pi}{7} = \frac{\sin \frac{7\pi}{2}}{2^6} = \frac{1}{2^6} = \frac{1}{64}. \] However, this identity includes all cosines from \(\cos \frac{\pi}{7}\) to \(\cos \frac{6\pi}{7}\), and we need only three specific cosines."
MATH_633_1 = r"Given that \(\sin (-120^\circ) = -\frac{\sqrt{3}}{2}\) (since \(\sin (-120^\circ)\) is the y-coordinate of the point on the unit circle corresponding to an angle of \(-120^\circ\)), we can find the reciprocal, which gives us: \(\csc (-120^\circ) = \frac{1}{\sin (-120^\circ)} = \frac{1}{-\frac{\sqrt{3}}{2}} = -\frac{2}{\sqrt{3}}\)."
OMNIMATH_625_6 = "Since \\(\\cos(105^\\circ) = -\\cos(75^\\circ) = -\\left(\\frac{\\sqrt{6} - \\sqrt{2}}{4}\\right)\\) and \\(\\sin(105^\\circ) = \\sin(75^\\circ) = \\frac{\\sqrt{6} + \\sqrt{2}}{4}\\), we have:\n\\[\\tan(52.5^\\circ) = \\frac{1 - \\left(-\\frac{\\sqrt{6} - \\sqrt{2}}{4}\\right)}{\\frac{\\sqrt{6} + \\sqrt{2}}{4}} = \\frac{1 + \\frac{\\sqrt{6} - \\sqrt{2}}{4}}{\\frac{\\sqrt{6} + \\sqrt{2}}{4}} = \\frac{\\frac{4 + \\sqrt{6} - \\sqrt{2}}{4}}{\\frac{\\sqrt{6} + \\sqrt{2}}{4}} = \\frac{4 + \\sqrt{6} - \\sqrt{2}}{\\sqrt{6} + \\sqrt{2}}\\]"
MATH_509_2 = "Second, use the tangent function in the fourth quadrant. In the fourth quadrant, the tangent function is negative. The tangent of an angle is the ratio of the sine to the cosine of that angle. For the reference angle \\(45^\\circ\\), we know:\n\\[ \\tan 45^\\circ = 1 \\]\nTherefore, in the fourth quadrant, where the sine is positive and the cosine is negative, we have:\n\\[ \\tan 315^\\circ = -\\tan 45^\\circ = -1 \\]"
MATH_360_2 = r"After placing Steve and Danny, we need to choose the remaining 3 players for the team that does not include Danny (since he is already placed). This means choosing 3 out of the remaining 8 players: \[ \binom{8}{3} = \frac{8!}{3!5!} = 56 \]"
OLYMPIADBENCH_106_1 = r"We can factor this quadratic polynomial as follows: \[x^2 - 60x + 400 = (x - 20)^2.\] This means that the roots of the polynomial are both \(20\). Therefore, the lengths of the sides of the rectangle are both \(20\)."
# shared/data/math500_sample.jsonl, test/geometry/686.json (a reference solution: correct)
GEOMETRY_686 = r"Each sector has radius 1 and arc length $\frac{40^\circ}{360^\circ}(2)(\pi)(1)=\frac{1}{9}(2\pi)$, so nine of these sectors have total arc length $2\pi$."

# (ProcessBench id or "", text, the kinds of the failed claims)
REFUTED_CASES = [
    (
        "",
        r"A known result for the product: \[ \cos 10^\circ \cos 50^\circ \cos 70^\circ = \frac{1}{8} \]",
        {"arithmetic"},
    ),
    ("math-467", MATH_467_3, {"chain"}),
    # its false claim follows "Instead, we use a known result": asserted (round 16; it was
    # read as a correction, "instead of", until then)
    ("math-228", MATH_228_6, {"arithmetic"}),
    ("olympiadbench-106", OLYMPIADBENCH_106_1, {"rewriting"}),
    ("", r"\[ \binom{8}{3} = \frac{8!}{3!5!} = 57 \]", {"chain"}),
    ("", r"So \(\tan 60^\circ = \frac{\sqrt{3}}{3}\).", {"arithmetic"}),
    ("", r"Factoring, we get \[ x^2 + 5x + 6 = (x+2)(x+4) = 0 \]", {"rewriting"}),
    ("", r"The arc is $\frac{40^\circ}{360^\circ}(2\pi) = \frac{1}{8}(2\pi)$.", set()),
    # a plain-text root sign takes the whole number, or a parenthesis
    ("", "So the side is √169 = 14 cm.", {"arithmetic"}),
    ("", "The diagonal is √(16 + 9) = 6.", {"arithmetic"}),
]

NOT_REFUTED = [
    ("math-228", MATH_228_0),
    ("math-633", MATH_633_1),
    ("omnimath-625", OMNIMATH_625_6),
    ("math-509", MATH_509_2),  # a first error by its reasoning; its values are right
    ("math-360", MATH_360_2),
    ("", GEOMETRY_686),
    # the same value written other ways, and rounded decimals
    ("", r"\(\cos 10^\circ \cos 50^\circ \cos 70^\circ = \frac{\sqrt{3}}{8}\)"),
    ("", r"\(\cos 36^\circ = \frac{1+\sqrt5}{4}\), \(\sin^2 45^\circ = \frac{1}{2}\)"),
    ("", r"So \(\sin 40^\circ = 0.6428\) and \(10 \sin 40^\circ = 6.43\)."),
    ("", r"\(\sin\left(\frac{\pi}{3}\right) = \frac{\sqrt{3}}{2}\), \(\cos 0 = 1\)"),
    ("", r"\( 2\sin 30^\circ \cos 30^\circ = \sin 60^\circ \)"),
    # not read: no unit (degrees or radians?), a letter, an argument that may go on, an
    # inverse, an undefined value, a double factorial
    ("", r"\(\sin 30 = \frac{1}{3}\)"),
    ("", r"\(\sin x = 5\)"),
    ("", r"\(\sin 2\pi = 1\)"),
    ("", r"\(\tan^{-1}(1) = 30^\circ\)"),
    ("", r"\(\tan 90^\circ = 0\)"),
    ("", r"\( 3!5!! = 720 \)"),
    # plain-text roots: true values, and "√16 + 9" (does the bar cover the 9?) not read
    ("", "So √169 = 13 and the hypotenuse is √98 = 7√2."),
    ("", "so √2.25 = 1.5"),
    ("", "√16 + 9 = 5"),
    # factorizations that are not claimed, or are conditions
    ("", r"We set the two expressions equal to each other: \[ x^2 + 2 = (x + 2)^2 \]"),
    ("", r"If we factor it as \( x^2 + 1 = (x+1)^2 \), then the roots are real."),
    ("", r"Next, we try to factor it as \( x^2 + 1 = (x+1)^2 \)."),
    ("", r"Factoring the equation gives: \[ x^2 - 5x = -6 \]"),
    ("", r"We factor as follows: \[ x^2 - 60x + 900 = (x - 30)^2 \]"),
]


@pytest.mark.parametrize(("row", "text", "kinds"), REFUTED_CASES)
def test_false_claim_is_refuted(row, text, kinds):
    failed = failed_kinds(text)
    if not kinds:  # a reading that must not refute (degrees over degrees), nor verify
        assert failed is None
        return
    assert failed == kinds


@pytest.mark.parametrize(("row", "text"), NOT_REFUTED)
def test_true_or_unread_claim_is_not_refuted(row, text):
    assert failed_kinds(text) is None


def test_trig_values_are_exact():
    verdict = check_step(r"\(\cos 60^\circ = \frac{1}{2}\)", timeout_s=5.0)
    assert verdict.verdict == "verified"
    assert verdict.claims[0].lhs_value == "1/2"


def test_rows_are_develop():
    assert_develop({row for row, *_ in REFUTED_CASES + NOT_REFUTED if row})
