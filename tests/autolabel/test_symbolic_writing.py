# ruff: noqa: E501 -- step texts as models write them, one literal per text
"""How models write math, read the same way (symbolic-1.9, issue 25 round 7).

The metamorphic stress's round-7 rewrites (autolabel/quality/metamorphic.py: ``\\tfrac``,
``\\;`` and ``~`` spacing, a display ended by "." or ",", a chain broken over lines, ``≈`` for
``\\approx``, ``\\%``, ``^{\\circ}``, ``\\,\\text{ cm}``, "=" in a sentence or in ``$...$``, a
result rounded to stated places) found classes of misreadings, each fixed in general. For each:
a tricky TRUE statement that must not be refuted, and a false one that still must be (so the
precision fix does not silently cost recall).
"""

import pytest

from autolabel.quality.metamorphic import REWRITES
from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED


def refuted(text: str) -> bool:
    return check_step(text, timeout_s=5.0).verdict == REFUTED


# (true statement that must not be refuted, false statement that still must be)
CLASSES = {
    # a display ended by its sentence's punctuation before the "or" of a case split: each
    # branch is one of a disjunction, not an equation the later solution must satisfy
    "case split across punctuated displays": (
        r"Setting each factor equal to zero gives us: \[x - 1 = 0.\] or \[x^2 - 3x - 3 = 0.\] From the first equation, we find: \[x = 1\]",
        r"Setting each factor equal to zero gives us: \[x - 1 = 0\] and so \[x^2 - 3x - 3 = 0.\] From the first equation, we find: \[x = 1\]",
    ),
    # LaTeX spacing inside a formula is only space: "41 is not prime", "1 is even" and
    # "1 \\equiv 3" were read out of the formula it splits
    "spacing commands inside a parity claim": (
        r"If $a_1$ is odd, then $a_2\;=\;3a_1\;+\;1$ is even.",
        r"So $41$ is even.",
    ),
    "tilde spacing inside a parity claim": (
        r"If $a_1$ is odd, then $a_2~=~3a_1~+~1$ is even.",
        r"So $3~+~4~=~8$.",
    ),
    "spacing commands inside a primality claim": (
        r"To determine the smallest positive integer \( x \) for which \( x^2\;+\;x\;+\;41 \) is not a prime number, we try small values.",
        r"The prime factorization is \[2\,013 = 3 \times 11 \times 67.\]",
    ),
    "spacing commands inside a congruence": (
        r"then \(2 \cdot 6\;+\;4 \equiv 12\;+\;4 \equiv 16 \equiv 2 \pmod{7}\).",
        r"then \(2 \cdot 6\;+\;4 \equiv 12\;+\;4 \equiv 16 \equiv 3 \pmod{7}\).",
    ),
    # ... but one that sets off a digit group is a thousands separator (MATH-500's reference
    # solutions write "10,\\!080"): blanked, "10" was read as the result
    "a digit group set off by a negative thin space": (
        r"So the number of seating arrangements in which the boys sit together is $7!\times 2!=\boxed{10,\!080}$.",
        r"So the number of seating arrangements in which the boys sit together is $7!\times 2!=\boxed{10,\!800}$.",
    ),
}


@pytest.mark.parametrize("name", list(CLASSES))
def test_true_statement_is_not_refuted(name):
    true, _ = CLASSES[name]
    assert not refuted(true)


@pytest.mark.parametrize("name", list(CLASSES))
def test_false_statement_is_still_refuted(name):
    _, false = CLASSES[name]
    assert refuted(false)


@pytest.mark.parametrize(
    ("name", "before", "after"),
    [
        ("tfrac", r"$\frac{1}{2}$", r"$\tfrac{1}{2}$"),
        ("thick_space", "$1 + 2 = 3$", r"$1\;+\;2\;=\;3$"),
        ("tilde_space", "$1 + 2 = 3$", "$1~+~2~=~3$"),
        ("display_period", r"\[1 + 2 = 3\]", r"\[1 + 2 = 3.\]"),
        ("display_comma", r"\[1 + 2 = 3 \]", r"\[1 + 2 = 3, \]"),
        ("line_broken", r"\[ 1 + 2 = 3 = 6/2 \]", "\\[ 1 + 2\n= 3\n= 6/2 \\]"),
        ("approx_symbol", r"$\pi \approx 3.14$", "$\\pi \u2248 3.14$"),
        ("percent", r"$20\% \cdot 5 = 1$", r"$20\,\% \cdot 5 = 1$"),
        ("percent", "20% of 5 is 1", "20 percent of 5 is 1"),
        ("degrees", r"$30^\circ$", r"$30^{\circ}$"),
        ("units", r"$3 \text{cm} + 2 \text{cm}$", r"$3\,\text{ cm} + 2\,\text{ cm}$"),
        ("unwrap_math", "so $2 + 3 = 5$ apples", "so 2 + 3 = 5 apples"),
        ("wrap_math", "so 2 + 3 = 5 apples", "so $2 + 3 = 5$ apples"),
        ("rounded", "$x = 3.14159$", r"$x \approx 3.14$"),
        ("rounded", "so x = 2.718281.", "so x \u2248 2.72 (to 2 decimal places)."),
    ],
)
def test_round_7_rewrites_keep_the_meaning(name, before, after):
    assert REWRITES[name](before) == after
