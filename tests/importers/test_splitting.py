import pytest

from labeling.models import StepSplit
from labeling.steps.splitting import split_steps


def test_line_rule_strips_and_drops_empty_lines():
    text = "  First step.  \r\n\n   \nSecond step\n\tThird\n"
    assert split_steps(text, StepSplit.LINE) == ["First step.", "Second step", "Third"]


def test_paragraph_rule_keeps_lines_of_a_paragraph_together():
    text = "Step one,\nstill step one.\n\n  \nStep two.\n \t\nStep three.\n\n"
    assert split_steps(text, StepSplit.PARAGRAPH) == [
        "Step one,\nstill step one.",
        "Step two.",
        "Step three.",
    ]


def test_step_marker_rule_keeps_markers_and_the_preamble():
    text = (
        "Let us solve it. Step 1: add 2 and 2. Step 2: that is 4.\n"
        "**Step 3:** check.\n## Step 4. done; see Step 10: never mind"
    )
    assert split_steps(text, StepSplit.STEP_MARKER) == [
        "Let us solve it.",
        "Step 1: add 2 and 2.",
        "Step 2: that is 4.",
        "**Step 3:** check.",
        "## Step 4. done; see",
        "Step 10: never mind",
    ]


def test_step_marker_rule_ignores_markers_inside_words_and_without_a_number():
    text = "Step 1: the FirstStep 2: is glued. Step two: no number.\nStep 2: real."
    assert split_steps(text, StepSplit.STEP_MARKER) == [
        "Step 1: the FirstStep 2: is glued. Step two: no number.",
        "Step 2: real.",
    ]


def test_regex_rule_splits_on_matches_and_capture_groups_do_not_leak():
    text = "a = 1 ;; b = 2 ;;;; c = 3 ;;"
    assert split_steps(text, StepSplit.REGEX, r"\s*(;;)+\s*") == ["a = 1", "b = 2", "c = 3"]


def test_regex_rule_needs_a_valid_regex():
    with pytest.raises(ValueError, match="needs a regular expression"):
        split_steps("a", StepSplit.REGEX)
    with pytest.raises(ValueError, match="invalid step regex"):
        split_steps("a", StepSplit.REGEX, "(")


def test_unknown_rule():
    with pytest.raises(ValueError, match="unknown step split rule"):
        split_steps("a", "sentences")


def test_empty_text_has_no_steps():
    for rule in (StepSplit.LINE, StepSplit.PARAGRAPH, StepSplit.STEP_MARKER):
        assert split_steps(" \n\n ", rule) == []
