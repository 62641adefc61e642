"""Issue 25, round 9 (symbolic-1.12): notations found by probing true statements.

Residue symbols: in number theory ``\\left(\\frac{a}{p}\\right)`` is the Legendre (Jacobi,
Kronecker) symbol, 1, -1 or 0. symbolic-1.11 refuted every statement below as arithmetic or
chain (3/7 ≠ -1), both earned kinds. Where the step or the problem speaks of such symbols the
chain says nothing the checker reads; elsewhere the same writing is still arithmetic.
"""

import pytest

from autolabel.symbolic import check_step, check_step_local
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import failed_kinds

RESIDUE_SYMBOLS = [
    r"By quadratic reciprocity, $\left(\frac{3}{7}\right) = -\left(\frac{7}{3}\right) = -\left(\frac{1}{3}\right) = -1$.",  # noqa: E501
    r"The Legendre symbol $\left( \frac{3}{11} \right) = 1$ and $\left(\frac{2}{11}\right) = -1$.",
    r"Using the Jacobi symbol, $\left(\frac{2}{15}\right) = \left(\frac{2}{3}\right)\left(\frac{2}{5}\right) = (-1)(-1) = 1$.",  # noqa: E501
    r"$(\frac{3}{7}) = -1$, so 3 is a quadratic non-residue.",
    r"Since 7 is a quadratic residue of 3, $(7/3) = 1$.",
    r"$\left(\dfrac{5}{7}\right) = -1$ by the Kronecker symbol's rule.",
]


@pytest.mark.parametrize("text", RESIDUE_SYMBOLS)
def test_a_residue_symbol_is_no_fraction(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


def test_the_problem_may_set_the_residue_setting():
    problem = "Compute the Legendre symbol of 3 over the prime 7."
    verdict = check_step_local(r"$\left(\frac{3}{7}\right) = -1$", (), problem)
    assert verdict.verdict != REFUTED


@pytest.mark.parametrize(
    ("text", "kinds_"),
    [
        # no residue setting: a parenthesized fraction is a fraction
        (r"$\left(\frac{3}{7}\right) = -1$", {"arithmetic"}),
        (r"$\left(\frac{3}{6}\right) = \frac{1}{3}$", {"arithmetic"}),
        (r"$\left(\frac{1}{2}\right)^2 = \frac{1}{8}$", {"arithmetic"}),
        # in the setting, a chain without such a symbol is still read
        (r"By quadratic reciprocity, $\frac{7 - 1}{2} \cdot \frac{3 - 1}{2} = 4$.", {"arithmetic"}),
    ],
)
def test_fractions_outside_the_setting_are_still_read(text, kinds_):
    assert failed_kinds(text) == kinds_


# Rings and fields of residues, and bases named in words: symbolic-1.11 refuted each as
# arithmetic (an earned kind); the same claims without the setting are still refuted.
SETTINGS = [
    r"In $\mathbb{Z}_7$, $3 \cdot 5 = 1$.",
    r"$\mathbb{Z}/6\mathbb{Z}$ has 6 elements: $2 + 5 = 1$.",
    r"Working in $Z_{5}$, $4 + 3 = 2$.",
    r"In $GF(2)$, $1 + 1 = 0$.",
    r"Over the finite field $\mathbb{F}_p$ with $p = 5$: $2 \cdot 3 = 1$.",
    r"In binary, $1 + 1 = 10$ and $11 + 1 = 100$.",
    r"In octal, $7 + 1 = 10$.",
]


@pytest.mark.parametrize("text", SETTINGS)
def test_a_named_ring_or_base_is_read(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize(
    "text",
    [r"$3 \cdot 5 = 1$.", r"In $\mathbb{R}$, $2 + 5 = 1$.", r"In binary, $1 + 1 = 3$."],
)
def test_without_the_setting_the_claim_is_still_refuted(text):
    assert failed_kinds(text) == {"arithmetic"}


# A "!" that ends a sentence in prose may be an exclamation mark: the claim is refuted only if
# it is false both ways (symbolic-1.11 read "4!" as 24).
@pytest.mark.parametrize(
    "text", ["So 3 + 4 = 7!", "Great, 2 + 2 = 4! Now the rest.", "That makes 10 + 14 = 24!\n"]
)
def test_an_exclamation_mark_is_no_factorial(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize(
    "text",
    [
        "So 3 + 4 = 8!",  # false either way
        "There are 5! = 100 orders.",  # a factorial before a word
        r"$3 + 4 = 7!$",  # in math "!" is a factorial
    ],
)
def test_factorials_are_still_factorials(text):
    assert failed_kinds(text) == {"arithmetic"}


# pi as the prime-counting function where the step or its problem counts primes
@pytest.mark.parametrize(
    "text",
    [r"$\pi(10) = 4$ primes below 10.", r"The number of primes up to 20 is $\pi(20) = 8$."],
)
def test_pi_counting_primes_is_a_function(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


def test_pi_elsewhere_is_the_constant():
    assert failed_kinds(r"The area is $\pi (3)^2 = 10\pi$.") == {"arithmetic"}


# "a, b, c = x, y, z" is read item by item (symbolic-1.11 compared the left list's last item
# with the right list's first: "3^2 = 1", an arithmetic -1)
@pytest.mark.parametrize(
    "text",
    [r"$1^2, 2^2, 3^2 = 1, 4, 9$", r"$1 + 2, 3 + 4, 5 + 6 = 3, 7, 11$", r"$3!, 4! = 6, 24$"],
)
def test_lists_are_read_item_by_item(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize(
    ("text", "claim"),
    [(r"$1^2, 2^2, 3^2 = 1, 4, 8$", "3^2 = 8"), (r"$1 + 2, 3 + 4 = 3, 8$", "3 + 4 = 8")],
)
def test_a_false_item_is_refuted_as_an_item(text, claim):
    verdict = check_step(text, timeout_s=5.0)
    assert [(c.kind, c.text) for c in verdict.failed] == [("item_list", claim)]


def test_lists_of_different_lengths_say_nothing():
    verdict = check_step(r"$1^2, 2^2 = 1, 4, 9$", timeout_s=5.0)
    assert verdict.verdict != REFUTED
