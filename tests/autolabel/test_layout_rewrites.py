"""Round 16 of the metamorphic stress (autolabel/quality/layout_rewrites.py): layout and the
prose around math. Each rewrite keeps the meaning (checked on an example) and leaves alone
what it could change the meaning of; true steps laid out every such way stay unrefuted, and
their false twins are still refuted however they are laid out.
"""

import pytest

from autolabel.quality.layout_rewrites import LAYOUT
from autolabel.quality.metamorphic import REWRITES, CorrectStep, stress
from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED

CHAIN = r"So \[ 3 \times 4 + 2 = 12 + 2 = 14. \]"
PAIR = "So $x = 2$ and $y = 3$."
PROSE = "She has 3 + 4 = 7 apples.\nThen: 7 * 2 = 14 apples."


@pytest.mark.parametrize(
    ("name", "before", "after"),
    [
        (
            "align_star",
            CHAIN,
            "So \\begin{align*}\n3 \\times 4 + 2 &= 12 + 2 \\\\\n&= 14\n\\end{align*}. ",
        ),
        (
            "array_rcl",
            CHAIN,
            "So \\[\\begin{array}{rcl}\n3 \\times 4 + 2 &=& 12 + 2 \\\\\n&=& 14\n\\end{array}\\]. ",
        ),
        ("quad_and", PAIR, r"So $x = 2 \quad \text{and} \quad y = 3$."),
        ("cases_pair", PAIR, r"So $\begin{cases} x = 2 \\ y = 3 \end{cases}$."),
        ("thin_space", r"$2 \cdot 3 + 1 = 7$", r"$2\,\cdot\,3\,+\,1\,=\,7$"),
        ("juxtapose", r"$2 \cdot x = 6$, $(x+1) \times (x-1)$", "$2x = 6$, $(x+1)(x-1)$"),
        ("display_lines", "so $2x = 6$. Then", "so \n$$\n2x = 6\n$$\n Then"),
        (
            "displays_align",
            r"\[3x + 6 = 21\] \[3x = 15.\]",
            "\\begin{align*}\n3x + 6 &= 21 \\\\\n3x &= 15\n\\end{align*}",
        ),
        (
            "displays_gathered",
            r"\[3x + 6 = 21\] \[3x = 15\]",
            "\\[\\begin{gathered}\n3x + 6 = 21 \\\\\n3x = 15\n\\end{gathered}\\]",
        ),
        ("display_inline", r"So \[3x = 15\] and", "So  $3x = 15$  and"),
        ("dash_bullets", PROSE, "- She has 3 + 4 = 7 apples.\n- Then: 7 * 2 = 14 apples."),
        ("star_bullets", PROSE, "* She has 3 + 4 = 7 apples.\n* Then: 7 * 2 = 14 apples."),
        ("numbered_paren", PROSE, "1) She has 3 + 4 = 7 apples.\n2) Then: 7 * 2 = 14 apples."),
        ("bold_label", "So 3 + 4 = 7.", "**Step 3:** So 3 + 4 = 7."),
        ("code_spans", PROSE, "She has `3 + 4 = 7` apples.\nThen: `7 * 2 = 14` apples."),
        ("code_spans", "So $3 + 4 = 7$.", "So `3 + 4 = 7`."),
        ("code_fence", "So 3 + 4 = 7.", "```\nSo 3 + 4 = 7.\n```"),
        (
            "table_rows",
            PROSE,
            "| Item | Calculation |\n|---|---|\n| She has | 3 + 4 = 7 apples. |\n"
            "| Then | 7 * 2 = 14 apples. |",
        ),
        ("italic_results", "So 3 + 4 = 7.", "So 3 + 4 = *7*."),
        ("answer_line", "So $3 + 4 = 7$.", "So $3 + 4 = 7$.\n\n**Answer:** 7"),
        ("boxed_sentence", "So 3 + 4 = 7.", r"So 3 + 4 = 7. So the result is $\boxed{7}$."),
        ("since_remark", "So 3 + 4 = 7.", "So 3 + 4 = 7 (since 7 > 0)."),
        (
            "context_numbers",
            "Then: 7 * 2 = 14 apples.",
            "Then: For days 1\u201310, 7 * 2 = 14 apples.",  # the phrase chosen by the text
        ),
        ("en_dash_minus", "Left: 20 - 4 - 1 = 15.", "Left: 20 \u2013 4 \u2013 1 = 15."),
        ("cents", "It costs $1200 or $35.50 or $5.", "It costs $1,200.00 or $35.50 or $5.00."),
    ],
)
def test_rewrites_keep_the_meaning(name, before, after):
    assert LAYOUT[name](before) == after


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("align_star", r"\[2 + 8 = 4 \implies 10 = 4\]"),  # "=" across an implication
        ("array_rcl", r"\[x \le 3 = y = z\]"),  # a relation besides "="
        ("quad_and", r"So $x = 2$ and $y \le 3$."),
        ("displays_align", r"\[x = 2 = 4/2\] \[y = 3\]"),  # a chain is no row of one "="
        ("juxtapose", r"$2 \cdot 3 = 6$"),  # two numbers side by side are another number
        ("since_remark", "So 3 - 3 = 0."),  # "0 > 0" is false
        ("dash_bullets", "1. So 3 + 4 = 7."),  # already a list
        ("numbered_paren", "So 3 + 4 = 7."),  # one line: no list
        ("cents", "So $x = 2$ and it costs $5."),  # math: "$" pairs as a delimiter
        ("code_spans", "It costs \\$5, so $5 + 1 = 6$."),
        ("en_dash_minus", "Pages 3-5 and 10 - x = 4."),  # a range, a letter
    ],
)
def test_rewrites_leave_alone_what_they_could_change(name, text):
    assert LAYOUT[name](text) == text


def test_every_round_16_rewrite_is_in_the_stress():
    assert set(LAYOUT) <= set(REWRITES)


TRUE_STEPS = [
    CHAIN,
    PAIR,
    PROSE,
    r"Subtracting 6 from both sides: \[ 3x + 6 = 21 \] \[ 3x = 15 \]",
    r"Then $2 \cdot x = 6$, so $(x+1) \cdot (x-1) = 8$ and $3 + 4 = 7$.",
    "The price is $1200, and 1200 - 400 = 800 is left.",
    "Left: 20 - 4 - 1 = 15.",
]
FALSE_TWINS = [
    r"So \[ 3 \times 4 + 2 = 12 + 2 = 15. \]",
    "She has 3 + 4 = 8 apples.\nThen: 7 * 2 = 14 apples.",
    r"Then $2 \cdot x = 6$, so $(x+1) \cdot (x-1) = 8$ and $3 + 4 = 8$.",
    "Left: 20 - 4 - 1 = 16.",
]


@pytest.mark.parametrize("text", TRUE_STEPS)
def test_true_steps_laid_out_any_way_are_not_refuted(text):
    for name, rewrite in LAYOUT.items():
        rewritten = rewrite(text)
        verdict = check_step(rewritten, timeout_s=5.0)
        assert verdict.verdict != REFUTED, (name, rewritten, [c.as_dict() for c in verdict.failed])


# Layouts whose equations the checker does not read at all (it says nothing, neither way):
# a table cell, an ``array`` row "&=&", a ``cases`` row, an italic result "= *16*", a remark
# "(since 16 > 0)" after a result (only the remark is read). Unread is no false refutation;
# reading them is recall for another round.
UNREAD = {"table_rows", "array_rcl", "cases_pair", "italic_results", "since_remark"}


@pytest.mark.parametrize("text", FALSE_TWINS)
def test_false_twins_laid_out_any_way_are_still_refuted(text):
    assert check_step(text, timeout_s=5.0).verdict == REFUTED
    for name, rewrite in LAYOUT.items():
        rewritten = rewrite(text)
        if rewritten == text or name in UNREAD:
            continue
        verdict = check_step(rewritten, timeout_s=5.0)
        assert verdict.verdict == REFUTED, (name, rewritten)


def test_the_stress_counts_no_new_refutation_of_a_true_step():
    steps = [CorrectStep("hand", str(i), 0, "", (), t) for i, t in enumerate(TRUE_STEPS)]
    result = stress(steps, workers=1, only=list(LAYOUT))
    assert result.steps == len(TRUE_STEPS) and result.appeared == {}
