# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Round 14 of the metamorphic stress (autolabel/quality/llm_rewrites.py): the notations LLM
solutions write. Each rewrite keeps the meaning (checked on an example), leaves alone what it
could change the meaning of, and no rewrite of the correct steps the round's stress found
refuted (develop rows and MATH-500 references, exact copies) is refuted any more.
"""

import pytest

from autolabel.quality.llm_more_rewrites import LLM_MORE
from autolabel.quality.llm_rewrites import LLM_STYLE
from autolabel.quality.metamorphic import REWRITES, CorrectStep, report, stress
from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop

MATH_45_4 = "Prime factorization of 2004: $2004 = 2^2 \\cdot 3 \\cdot 167$. The number of divisors of 2004 can be found by multiplying the exponents of its prime factors plus one: $(2+1)(1+1)(1+1) = 12$."
MATH_62_0 = "To determine the word that has a product value of 715, we start by finding the prime factorization of 715. The prime factorization of 715 is: \\[ 715 = 5 \\times 11 \\times 13 \\]"
MATH_787_1 = "First, let's find the prime factorizations of each number:\n- The prime factorization of \\(14\\) is \\(2 \\times 7\\).\n- The prime factorization of \\(20\\) is \\(2^2 \\times 5\\).\n- The prime factorization of \\(35\\) is \\(5 \\times 7\\)."
OLYMPIADBENCH_753_3 = "Calculate the sum of the digits of 98765:\n\\[ 9 + 8 + 7 + 6 + 5 = 35 \\]\nSince 35 is not divisible by 9, 98765 is not a multiple of 9."
OLYMPIADBENCH_648_1 = "Simplify by moving everything to one side: \\[(x-1) - 3 + \\frac{3}{x^{2}} = 0\\] \\[x - 4 + \\frac{3}{x^{2}} = 0\\] Multiply through by \\(x^2\\) to clear the fraction: \\[x^3 - 4x^2 + 3 = 0\\] We notice that \\(x = 1\\) is a solution (by inspection or synthetic division). So we can factor the polynomial: \\[(x - 1)(x^2 - 3x - 3) = 0\\] Setting each factor equal to zero gives us: \\[x - 1 = 0\\] or \\[x^2 - 3x - 3 = 0\\] From the first equation, we find: \\[x = 1\\] The second equation is a quadratic equation, but it doesn't factor easily, so we'll use the quadratic formula where \\(a = 1\\), \\(b = -3\\), and \\(c = -3\\): \\[x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}\\] Substituting the values: \\[x = \\frac{3 \\pm \\sqrt{(-3)^2 - 4(1)(-3)}}{2(1)}\\] \\[x = \\frac{3 \\pm \\sqrt{9 + 12}}{2}\\] \\[x = \\frac{3 \\pm \\sqrt{21}}{2}\\] Therefore, the solutions are: \\[x = 1\\] \\[x = \\frac{3 + \\sqrt{21}}{2}\\] \\[x = \\frac{3 - \\sqrt{21}}{2}\\]"
# MATH-500 reference solutions (test/algebra/791; test/number_theory/820, its first paragraph)
# and a PRMBench original process step (prm_test_p2_1559, step 3)
MATH_791 = "The prime factorization of $2009$ is $2009 = 7\\cdot 7\\cdot 41$. As $a<b<2009$, the ratio must be positive and larger than $1$. Hence, there is only one possibility: the ratio must be $7$, and thus $b=7\\cdot 41$ and $a=\\boxed{41}$."
MATH_820 = "Note that the prime factorization of $210$ is $2\\cdot 3\\cdot 5\\cdot 7$, and so the prime factorization of $210^3$ is $2^3\\cdot 3^3\\cdot 5^3\\cdot 7^3$."
PRM_TEST_P2_1559_3 = "I can simplify the radicals by factoring out perfect squares: $2\\sqrt{12} = 4\\sqrt{3}$ and $2\\sqrt{18} = 6\\sqrt{2}$."

FOUND = [
    OLYMPIADBENCH_648_1,  # its case split with "\\tag{1}" or "\\quad (1)" after each display
    MATH_45_4,
    MATH_62_0,
    MATH_787_1,
    OLYMPIADBENCH_753_3,
    MATH_791,
    MATH_820,
    PRM_TEST_P2_1559_3,
]


def test_cited_rows_are_develop_rows():
    assert_develop({"math-45", "math-62", "math-787", "olympiadbench-753", "olympiadbench-648"})


@pytest.mark.parametrize("text", FOUND)
def test_no_round_13_rewrite_of_the_steps_it_found_is_refuted(text):
    assert check_step(text, timeout_s=5.0).verdict != REFUTED
    for name, rewrite in {**LLM_STYLE, **LLM_MORE}.items():
        rewritten = rewrite(text)
        verdict = check_step(rewritten, timeout_s=5.0)
        assert verdict.verdict != REFUTED, (name, rewritten, [c.as_dict() for c in verdict.failed])


@pytest.mark.parametrize(
    ("name", "before", "after"),
    [
        ("unicode_minus", "So 5 - 3 = 2 and (-3)", "So 5 \u2212 3 = 2 and (\u22123)"),
        ("unicode_products", r"$2 \times 3 \cdot 4$", "$2 \u00d7 3 \u00b7 4$"),
        ("unicode_symbols", r"$\pi \le \sqrt{16}$", "$\u03c0 \u2264 \u221a16$"),
        ("superscripts", "So 3^2 = 9.", "So 3\u00b2 = 9."),
        ("degree_sign", r"$30^\circ$", "$30\u00b0$"),
        ("congruence_plain", r"$17 \equiv 2 \pmod{5}$", r"$17 ≡ 2 (\text{mod } 5)$"),
        ("double_star", "So 3^2 = 9.", "So 3 ** 2 = 9."),
        ("plain_text", r"So $\frac{3}{4} \times 2^{10} = 768$.", "So (3/4) × 2^(10) = 768."),
        ("brace_thousands", "$12345 + 1$", "$12{,}345 + 1$"),
        ("space_thousands", "So 12345 + 1 = 12346", "So 12 345 + 1 = 12 346"),
        ("times_ten", "$3 \\times 5000 = 15000$", "$3 \\times 5000 = 1.5 \\times 10^{4}$"),
        ("percent_link", "$1/4 = 0.25$", "$1/4 = 0.25 = 25\\%$"),
        ("percent_link", "So 1/8 = 0.125.", "So 1/8 = 0.125 = 12.5%."),
        (
            "rounded_middle",
            r"$1/3 = 0.33333 = 33.333\%$",
            r"$1/3 \approx 0.33 \text{ (to 2 decimal places)} = 33.333\%$",
        ),
        ("text_links", "$1 + 2 = 3 = 6/2$", r"$1 + 2 = 3 \quad\text{and so}\quad 3 = 6/2$"),
        ("bang_equals", "$1 + 2 = 3$", r"$1 + 2 =\! 3$"),
        (
            "aligned",
            r"\[1 + 2 = 3 = 6/2\]",
            "\\[\\begin{aligned}\n1 + 2 &= 3 \\\\\n&= 6/2\n\\end{aligned}\\]",
        ),
        ("choose", r"$\binom{5}{2} = 10$", r"${5 \choose 2} = 10$"),
        ("count_c", r"$\binom{5}{2} = 10$", "$C(5, 2) = 10$"),
        ("paren_product", r"$3 \times 4 = 12$", "$3(4) = 12$"),
        ("given", "We have $a = 5$.", "We have $a = 5$ (given)."),
        ("bare_assignments", "So $x = 2$, $y = 3$.", "So x = 2, y = 3."),
        ("tag", r"So \[1 + 2 = 3\]", r"So \[1 + 2 = 3 \tag{1}\]"),
        ("equation_number", r"So \[1 + 2 = 3\]", r"So \[1 + 2 = 3 \quad (1)\]"),
        ("implies_join", "$2x = 4$, so $x = 2$.", r"$2x = 4 \Rightarrow x = 2$."),
        (
            "vulgar_fractions",
            "He ate 2 1/2 pies and 1/4 of a cake.",
            "He ate 2½ pies and ¼ of a cake.",
        ),
        ("slash_fraction", r"$1 - \frac{1}{3} = \frac{2}{3}$", "$1 - 1/3 = 2/3$"),
        ("boxed_equation", "So $a$ and $3 + 4 = 7$.", r"So $a$ and $\boxed{3 + 4 = 7}$."),
        ("therefore", "Therefore, $x = 2$.", r"$\therefore x = 2$."),
        ("approx_for_equals", "$1/8 = 0.125$", r"$1/8 \approx 0.125$"),
        ("trailing_zero", "So 5/2 = 2.5 dollars.", "So 5/2 = 2.50 dollars."),
        ("point_zero", "So 3 + 4 = 7. And 2 + 2 = 4, so", "So 3 + 4 = 7.0. And 2 + 2 = 4.0, so"),
        ("frac_short", r"$\frac{1}{2} + \dfrac{3}{4}$", r"$\frac12 + \dfrac34$"),
        ("sqrt_short", r"$\sqrt{2} \cdot \sqrt{8} = 4$", r"$\sqrt2 \cdot \sqrt8 = 4$"),
        ("leading_point", "So 0.5 + 0.25 = 0.75", "So .5 + .25 = .75"),
        (
            "dollar_math",
            "It costs 3 dollars: $3 \\times 4 = 12$",
            "It costs 3 dollars: $3 \\times 4 = \\$12$",
        ),
    ],
)
def test_rewrites_keep_the_meaning(name, before, after):
    assert LLM_STYLE[name](before) == after


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("plain_text", r"So $2\frac{3}{4} = \frac{11}{4}$."),  # a mixed number, not 2(3/4)
        ("plain_text", r"It costs \$5 and $3 \times 5 = 15$."),  # a price: "$" pairs wrongly
        ("aligned", r"\[2 + 8 = 4 \implies 10 = 4\]"),  # "=" across an implication
        ("text_links", r"$2 + 8 = 4 \implies 10 = 4$"),
        ("paren_product", r"$3 \times 4^2 = 48$"),  # 3(4)^2 is another product
        ("unicode_minus", "- 3 + 4 = 7 (a list)"),  # a list mark is no minus
        ("times_ten", "$x = 1234$"),  # not round: no shorter scientific form
        ("slash_fraction", r"$2\frac{1}{2} + \frac{1}{2}x + \frac{1}{2}^2 + 8 \div \frac{1}{2}$"),
        ("vulgar_fractions", "So 11/2 and 1/20 stay."),
        ("trailing_zero", "So x = 2.5^2."),  # a power's base
        ("frac_short", r"$\frac{10}{3} + \sqrt{16}$"),  # two digits: braces needed
        ("leading_point", "So 10.5 and 2.05 stay."),
    ],
)
def test_rewrites_leave_alone_what_they_could_change(name, text):
    assert LLM_STYLE[name](text) == text


@pytest.mark.parametrize(
    ("name", "before", "after"),
    [
        ("math_unit_inside", "$3 + 4 = 7$", r"$3\text{ cm} + 4\text{ cm} = 7\text{ cm}$"),
        ("minus_parens", "$9 - 4 = 5$", "$9 + (-4) = 5$"),
        ("minus_parens", r"$3 - 4i + 9 - 4 \times 2$", r"$3 - 4i + 9 - 4 \times 2$"),  # left
        ("obelus", r"$\frac{12}{4} = 3$", r"$(12 \div 4) = 3$"),
        ("obelus", r"$2\frac{1}{2}$", r"$2\frac{1}{2}$"),  # a mixed number, left
        ("prose_cdot", "So 3 * 4 = 12.", "So 3\u00b74 = 12."),
        ("bold_math_result", "$1 + 2 = 3$", r"$1 + 2 = \mathbf{3}$"),
        ("displaystyle", r"$\frac{1}{2} = 0.5$", r"$\displaystyle \frac{1}{2} = 0.5$"),
    ],
)
def test_more_rewrites_keep_the_meaning(name, before, after):
    assert LLM_MORE[name](before) == after


def test_every_round_13_rewrite_is_in_the_stress():
    assert set(LLM_STYLE) | set(LLM_MORE) <= set(REWRITES)


def test_the_stress_runs_only_the_rewrites_named():
    step = CorrectStep("hand", "1", 0, "", (), "So 3^2 = 9, and 12345 + 1 = 12346.")
    result = stress([step], workers=1, only=["double_star", "superscripts"])
    assert set(result.rewritten) == {"double_star", "superscripts"}
    assert result.appeared == {}
    lines = report(result, only=["double_star"]).splitlines()
    assert len(lines) == 2 and "double_star" in lines[1]
