"""Answer equivalence on tricky pairs, and final-answer extraction."""

import pytest

from autolabel.answers import ANSWER_CHECK_VERSION, equivalent, extract_final_answer

PAIRS = [
    # fractions, decimals, \frac forms
    ("1/2", "0.5", True),
    (r"\frac{1}{2}", "0.5", True),
    (r"\dfrac{1}{2}", r"\frac12", True),
    (r"-\frac{1}{2}", "-0.5", True),
    ("0.333", r"\frac13", False),
    ("0.333333", r"\frac13", True),
    ("1/3", "0.3333", False),
    (r"3\frac{1}{2}", r"\frac72", True),
    ("4", "4.0", True),
    # \boxed
    (r"\boxed{3}", "3", True),
    (r"\boxed{\frac{7}{2}}", "3.5", True),
    (r"\boxed{4}", "5", False),
    # intervals vs inequalities, sets, tuples
    ("[1,3)", r"1 \le x < 3", True),
    (r"x \ge 2", r"[2,\infty)", True),
    (r"(-\infty, 2]", r"x \le 2", True),
    ("(1,3)", "[1,3]", False),
    (r"\{1,2,3\}", r"\{3,2,1\}", True),
    ("2,3", "3,2", True),
    ("(1,2)", "(2,1)", False),
    # degrees
    (r"30^\circ", "30", True),
    (r"30^{\circ}", "45", False),
    # percentages
    (r"50\%", "0.5", True),
    (r"50\%", "50", True),
    (r"10\%", r"\frac{1}{10}", True),
    ("0.5", "50", False),
    ("20%", "25%", False),
    # units and text
    (r"5 \text{ dollars}", "5", True),
    ("5 dollars", "5", True),
    (r"5\text{ cm}", "5", True),
    (r"\$18.90", "18.9", True),
    ("12 apples", "13", False),
    (r"\text{Monday}", "Monday", True),
    ("Tuesday", "Monday", False),
    # units in \mbox/\text with an exponent (issue 14), and the near misses that stay unequal
    (r"864 \mbox{ inches}^2", "864", True),
    (r"864 \text{ inches}^2", "864", True),
    (r"864\ \text{inches}^{2}", "864", True),
    (r"5\,\text{cm}^3", "5", True),
    (r"864 \text{ square inches}", "864", True),
    (r"864 \text{ inches}^2", "8642", False),
    (r"864 \mbox{ inches}^2", "864^2", False),
    (r"864^2", "864", False),
    # digits grouped with LaTeX thin spaces (issue 14), and the near misses
    (r"11,\! 111,\! 100", "11111100", True),
    (r"\boxed{11,\!111,\!100}", "11,111,100", True),
    (r"11\,111\,100", "11111100", True),
    (r"11,\! 111.5", "11111.5", True),
    (r"11,\!111", "11111.5", False),
    (r"11,\! 111,\! 100", "1111110", False),
    (r"(1,\! 2)", "(1,2)", True),
    (r"(1,\! 2)", "12", False),
    (r"(1,\! 2)", "1.2", False),
    (r"1,\!5", "15", False),
    (r"100,\,200", "100200", False),
    # commas, negatives, exact integers
    ("1,000", "1000", True),
    (r"1{,}000", "1000", True),
    ("-3", "-3", True),
    ("-3", "3", False),
    ("100000000000000000001", "100000000000000000000", False),
    # sqrt and symbolic forms
    (r"3\sqrt{2}", r"\sqrt{18}", True),
    (r"\frac{\sqrt{3}}{2}", r"\frac{1}{2}\sqrt{3}", True),
    (r"2\sqrt{2}", r"\sqrt{6}", False),
    ("x^2+2x+1", "(x+1)^2", True),
    ("y=2x+1", "2x+1", True),
    (r"2\pi", "6.28", False),
    # multiple choice
    ("A", "A", True),
    ("(B)", "B", True),
    (r"\text{(C)}", "C", True),
    ("B", "C", False),
    # undecidable
    ("12", "B", None),
    ("", "5", None),
    ("5", "", None),
]


@pytest.mark.parametrize(("predicted", "gold", "expected"), PAIRS)
def test_equivalent(predicted, gold, expected):
    assert equivalent(predicted, gold) is expected


def test_version_is_a_string():
    assert isinstance(ANSWER_CHECK_VERSION, str) and "math-verify" in ANSWER_CHECK_VERSION


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        (r"so the answer is $\boxed{\frac{1}{2}}$.", r"\frac{1}{2}"),
        (r"\boxed{a{b}c} first, then \boxed{\frac{1}{2}}", r"\frac{1}{2}"),
        (r"Therefore, the answer is: \(\boxed{157}\).", "157"),
        ("He pays 5 + 3 = <<5+3=8>>8\n#### 1,000", "1,000"),
        ("Final Answer: The final answer is $12$. I hope it is correct.", "12"),
        ("The answer is 42.", "42"),
        ("The answer is: $3.5$.", "3.5"),
        ("So he made 90,000\nA: 90,000", "90,000"),
        ("I get a = 8.\n\n# Answer\n\n8, 3, 1", "8, 3, 1"),
        ("no final answer stated here", None),
        ("", None),
    ],
)
def test_extract_final_answer(text, answer):
    assert extract_final_answer(text) == answer


def test_extract_from_real_solutions():
    # /work/shared/data/gsm8k_model_solutions_sample.jsonl line 1, 6b_finetuning
    solution = (
        "The house was originally worth 80,000*.5=$<<80000*.5=40000.0>>40,000\n"
        "So it increased in value by 80,000+50,000=$<<80000+50000=130000>>130,000\n"
        "This means he made a profit of 130,000-40,000=$<<130000-40000=90000>>90,000\n"
        "A: 90,000"
    )
    assert extract_final_answer(solution) == "90,000"
    assert equivalent(extract_final_answer(solution), "70000") is False
    # /work/shared/data/gsm8k_sample.jsonl line 1
    answer = (
        "So far, Mary has paid back $15 +$23=$<<15+23=38>>38 of the credit.\n"
        "So she still needs to pay $100-$38=$<<100-38=62>>62\n#### 62"
    )
    assert extract_final_answer(answer) == "62"
