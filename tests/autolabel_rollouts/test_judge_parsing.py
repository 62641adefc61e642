"""Reading the critic's earliest-error index from messy replies."""

import pytest

from autolabel.judge import judge_messages, majority, parse_first_error

REPLIES = [
    ("The earliest error is in paragraph 2.\n\n\\boxed{2}", 2),
    ("Final answer: \\boxed{-1}", -1),
    ("\\boxed{\\text{3}}", 3),
    ("So the answer is $\\boxed{paragraph\\_1}$", 1),
    ("\\boxed{ 0 }", 0),
    ("\\boxed{None}", -1),
    ("After review, all paragraphs are correct.", -1),
    ("There is no error in this solution.", -1),
    ("Paragraph 0 is fine. Paragraph 1 is correct. Paragraph 3 contains an error: 2+2=5.", 3),
    ("Paragraph 2 has a mistake; paragraph 4 is also wrong.", 2),
    ("Paragraph 1 does not contain any error. Paragraph 2 is incorrect.", 2),
    ("The final answer is 1.", 1),
    ("Index: 4", 4),
    ("-1", -1),
    ("  2 ", 2),
    ("\\boxed{7}", None),  # out of range for 5 paragraphs
    ("\\boxed{-3}", None),
    ("I think something is off somewhere.", None),
    ("", None),
    ("asdf qwer \\boxed{x+1}", None),
    ("The earliest error occurs at paragraph 3, where the sum is wrong.", 3),
]


@pytest.mark.parametrize(("reply", "expected"), REPLIES)
def test_parse_first_error(reply: str, expected: int | None) -> None:
    assert parse_first_error(reply, 5) == expected


def test_majority_prefers_most_votes_then_the_earlier_error() -> None:
    assert majority([2, 2, -1]) == 2
    assert majority([-1, -1, 3]) == -1
    assert majority([3, 1, None]) == 1  # a tie goes to the earlier error
    assert majority([-1, 2]) == 2
    assert majority([None, None]) is None


def test_prompt_tags_paragraphs_from_zero() -> None:
    [message] = judge_messages("What is 1+1?", ["One plus one.", "It is 2."])
    assert message["role"] == "user"
    text = message["content"]
    assert "<paragraph_0>\nOne plus one.\n</paragraph_0>" in text
    assert "<paragraph_1>\nIt is 2.\n</paragraph_1>" in text
    assert "What is 1+1?" in text and "\\boxed{}" in text and "-1" in text
