"""The checker's rules, one behaviour per case (synthetic steps; real ones are in the table)."""

import json

import pytest

from autolabel.symbolic import CHECKER_VERSION, check_step

VERIFIED = [
    "3 * 4 = 12",
    "So he can eat 2 x 75 = 150 medium-sized beans.",
    "$12 + $5 = $17",
    "3 hours * 4 = 12 hours",
    "12 + 5 = 17 apples",
    "20% of 50 = 10",
    r"$\frac{1}{2} \cdot 6 = 3$",
    r"$\dfrac{9}{3} = 3$",
    r"\( 6 \div 3 = 2 \)",
    r"\[ 3 \times 4 = 12 \]",
    "$$7 - 2 = 5$$",
    r"\begin{align*} a &= 2 + 3 \\ &= 5 \end{align*}",
    "$2^{10} = 1024$",
    "$10! = 3628800$",
    r"$\binom{5}{2} = 10$",
    r"${8 \choose 3} = 56$",
    r"$3\sqrt{2} = \sqrt{18}$",
    r"$\sqrt[3]{27} = 3$",
    "$1{,}000 + 2{,}000 = 3{,}000$",
    "He paid 1,000 + 2,500 = 3,500 dollars.",
    "-5 + 3 = -2",
    "Total: 4 x 6 = <<4*6=24>>24 tickets",
    r"$\$5 + \$3 = \$8$",
    "She has 86(2)=172 stickers.",
    r"$3 \cdot 2\pi = 6\pi$",
    "$(x+1)^2 = x^2 + 2x + 1$",
    "$19x - 4x = (19 - 4)x = 15x$",
    "550 cups / 110 cups per bag = 5 bags",
    r"\[ 200 \text{ km/day} \times 4 \text{ days} = 800 \text{ km} \]",
    r"$180^\circ - 30^\circ = 150^\circ$",
    "0.2 x 100 = 20%",
    "50% = 0.5",
    "The rest is 5/5 \u2013 1/5 = 4/5 for other things.",
    "$(1+i)^2 = 1 + 2i + i^2 = 1 + 2i - 1 = 2i$",  # i: never refuted, identities still hold
]

REFUTED = [
    "3 * 4 = 13",
    "$12 + $5 = $18",
    r"$\frac{1}{2} \cdot 6 = 4$",
    "$2^{10} = 1000$",
    "20% of 50 = 15",
    "1.5 * 3 = 4.6",
    "$2 + 3 = 5 = 6$",
    "She pays 80,000*.15 = $195,000",
    "The total is 0-18,000=18,000 miles.",
    r"$\sqrt{8} = 3\sqrt{2}$",
    "$(x+1)^2 = x^2 + 2x + 1 = x^2 + 1$",
    "<<3*4=13>>",
]

UNKNOWN = [
    "2x + 3 = 7",
    "Let $x = 5$.",
    "$f(x) = 2x + 1$",
    r"$x \approx 3.14$",
    r"$\pi \approx 3.14$",
    r"$x \neq 3$",
    r"$7 \equiv x \pmod 3$",  # a congruence with a symbol (numbers only: congruence claims)
    r"In modular arithmetic, $7 = 1$ when working mod 3.",
    "1 + 2 + ... + 10 = 55",
    "Day 1 = 5 + 3",
    "1 1/2 = 1.5",
    "100 / 3 = 33 people",
    "0.33 * 150 = 50",
    "2 dozen = 24",
    "2 hours * 60 = 120 minutes",
    "500,000 * 3 = 1.5 million",
    "Is 3 * 4 = 13?",
    "If 2 + 2 = 5, then anything follows.",
    "$10^{10^{10}} = 5$",
    "$3\\frac{1}{2} = 3.5$",
    "$6S + 9 = 3(S + 9)$",
    r"$\{1, 2\} = \{2, 1\}$",
    "$(1, 2) = (1, 2)$",
    "Weeks 1-2 = 96 - 70",
    "The answer is roughly 10 / 3 = 3.",
    "Plugging in, we get $1 = \\sqrt{9} + 4$, which is false.",
    "For p = 7, 7 \\cdot 3 = 22 = 1 modulo 7",
    "There are no equations in this step.",
    "",
]


@pytest.mark.parametrize("text", VERIFIED)
def test_verified(text):
    verdict = check_step(text)
    assert verdict.verdict == "verified", [c.as_dict() for c in verdict.claims]


@pytest.mark.parametrize("text", REFUTED)
def test_refuted(text):
    verdict = check_step(text)
    assert verdict.verdict == "refuted", [c.as_dict() for c in verdict.claims]
    assert verdict.failed and all(c.holds is False for c in verdict.failed)


@pytest.mark.parametrize("text", UNKNOWN)
def test_unknown(text):
    verdict = check_step(text)
    assert verdict.verdict == "unknown", [c.as_dict() for c in verdict.claims]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("10/3 = 3.33", "rounded to 2"),
        ("2/3 = 0.66", "truncated to 2"),
        (r"$\pi \cdot 5^2 = 78.54$", "rounded to 2"),
        (r"$\sqrt{2} = 1.414$", "rounded to 3"),
        ("80 / 75 = 1.0666666666666667", "float rounding"),
        ("3 * 4 = 12 + 5 = 17", "equal (exact)"),
    ],
)
def test_decimals_hold_to_the_precision_written(text, reason):
    verdict = check_step(text)
    assert verdict.verdict == "verified"
    assert any(c.holds and reason in c.reason for c in verdict.claims), verdict.claims


def test_running_total_is_not_refuted():
    verdict = check_step("3 * 4 = 12 + 5 = 17")
    first, second = verdict.claims
    assert first.holds is None and "running total" in first.reason
    assert second.holds is True


def test_claim_fields_and_kinds():
    verdict = check_step("He has <<3*4=12>>12. Then 20% of 50 = 10, so $x = 2 + 3 = 6$.")
    kinds = {c.kind for c in verdict.claims}
    assert {"gsm8k_calc", "percentage", "chain", "algebraic"} <= kinds
    failed = verdict.failed[0]
    assert (failed.lhs, failed.rhs, failed.lhs_value, failed.rhs_value) == ("2 + 3", "6", "5", "6")
    assert failed.kind == "chain" and failed.source == "math" and failed.text == "2 + 3 = 6"


def test_evidence_is_json():
    verdict = check_step(r"So $\frac{3}{4} \times 48 = 36$ and 3 * 4 = 13.")
    evidence = json.loads(json.dumps(verdict.as_evidence()))
    assert evidence["verdict"] == "refuted"
    assert evidence["checker_version"] == CHECKER_VERSION
    assert evidence["failed"][0]["rhs_value"] == "13"
    assert evidence["checked"] == 2


def test_integers_are_exact_not_float():
    assert check_step("10000000000000001 - 1 = 10000000000000001").verdict == "refuted"
    assert check_step("2^{64} = 18446744073709551616").verdict == "verified"
    assert check_step("0.1 + 0.2 = 0.3").verdict == "verified"


def test_problem_and_previous_steps_make_it_more_careful():
    chain = "$(x+1)^2 = x^2 + 2x + 1 = x^2 + 1$"
    assert check_step(chain).verdict == "refuted"
    # x is constrained by an equation in the problem: the last link may use it
    for verdict in (
        check_step(chain, problem="Suppose $2x = 0$."),
        check_step(chain, previous_steps=["We know $x^2 + 2x = 0$."]),
    ):
        assert verdict.verdict == "verified"  # the first link is an identity
        assert verdict.claims[-1].holds is None and "constrained" in verdict.claims[-1].reason
    rounding = "So 7 / 3 = 2.4"
    assert check_step(rounding).verdict == "refuted"
    assert check_step(rounding, problem="Round to the nearest tenth.").verdict == "unknown"


def test_currency_dollars_and_math_dollars():
    assert check_step("Mary has paid back $15 +$23=$38 of the credit.").verdict == "verified"
    assert check_step("We have $3p+e=1.24$ and $5p+e=1.82$.").verdict == "unknown"
    assert check_step(r"It costs \$5, so $5 \times 3 = 15$.").verdict == "verified"
