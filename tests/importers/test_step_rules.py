"""The sentence and step-tag rules, `<think>` reasoning blocks, and their linear time."""

import time

import pytest

from labeling.importers import ParseOptions
from labeling.importers.fields import Row
from labeling.importers.steplab import parse
from labeling.models import StepSplit
from labeling.steps.sentences import math_spans, split_sentences
from labeling.steps.splitting import StepRule, split_solution, split_steps, tag_pattern, think_parts


@pytest.mark.parametrize(
    "text, sentences",
    [
        (
            "We use a rule, e.g. the quadratic formula. Then x = 3.14 exactly.",
            ["We use a rule, e.g. the quadratic formula.", "Then x = 3.14 exactly."],
        ),
        (
            "Dr. Smith and Mr. Jones agree, i.e. it holds. Is it right? Yes! Done.",
            ["Dr. Smith and Mr. Jones agree, i.e. it holds.", "Is it right?", "Yes!", "Done."],
        ),
        (
            "1. Compute the sum.\n2. Divide by two. The mean is 4.5.",
            ["1. Compute the sum.", "2. Divide by two.", "The mean is 4.5."],
        ),
        ("a. First item.\nb. Second item.", ["a. First item.", "b. Second item."]),
        ("Step 1. Add them. Step 2. Multiply.", ["Step 1. Add them.", "Step 2. Multiply."]),
        (
            "Let $x = 1. Then y = 2$ hold. So $a.b$ is it. Next.",
            ["Let $x = 1. Then y = 2$ hold.", "So $a.b$ is it.", "Next."],
        ),
        (
            "Since \\[x. Y = 2.\\] we stop. And \\(p. Q\\) too. End.",
            ["Since \\[x. Y = 2.\\] we stop.", "And \\(p. Q\\) too.", "End."],
        ),
        ("So $$a. B$$ holds. Yes.", ["So $$a. B$$ holds.", "Yes."]),
        (  # money is not math: "$5 ... $6" has no closing dollar after a non-space
            "It costs $5. Then he pays $6. Total $11.",
            ["It costs $5.", "Then he pays $6.", "Total $11."],
        ),
        ("An escaped \\$5. Next one.", ["An escaped \\$5.", "Next one."]),
        ("So 5! = 120. Then stop.", ["So 5! = 120.", "Then stop."]),
        (
            "See Fig. 3 and No. 5 here. It is etc. and so on.",
            ["See Fig. 3 and No. 5 here.", "It is etc. and so on."],
        ),
        ('He said "Stop." Then he left.', ['He said "Stop."', "Then he left."]),
        (
            "Hmm... Wait. Let me check... so it is.",
            ["Hmm...", "Wait.", "Let me check... so it is."],
        ),
        ("First line without a point\nsecond line", ["First line without a point", "second line"]),
        ("```\nx = 1. Y = 2\n```\nAfter. Yes.", ["```\nx = 1. Y = 2\n```", "After.", "Yes."]),
        ("Unclosed \\[ math. Here. Yes.", ["Unclosed \\[ math.", "Here.", "Yes."]),
        ("  \n  ", []),
    ],
)
def test_sentence_rule(text, sentences):
    assert split_steps(text, StepSplit.SENTENCE) == sentences


def test_inline_math_never_spans_a_blank_line():
    text = "Costs $a and\n\nmore b$ here."
    assert math_spans(text) == []
    assert split_sentences("Let $x$ be 3. Then $y$.") == ["Let $x$ be 3.", "Then $y$."]


@pytest.mark.parametrize(
    "text",
    [
        "$a " * 60_000,  # openers without a closer
        "\\[ " * 60_000,
        "." * 200_000 + " Next",
        "e.g. " * 60_000,
        ("Let $x$ be 3.14. Dr. Who said e.g. this! " * 5_000) + "$ " * 30_000,
    ],
)
def test_sentence_rule_is_linear(text):
    """Twice the text takes about twice the time (not four times): no rescans."""

    def timed(t: str) -> float:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            split_sentences(t)
            best = min(best, time.perf_counter() - start)
        return best

    small, big = timed(text), timed(text * 4)
    assert big < 12 * small + 0.05, (small, big)


def test_step_tags_presets_and_custom():
    qwen = "Add 2 and 3.<extra_0>That is 5.<extra_0>"
    assert split_steps(qwen, StepSplit.STEP_TAGS, tag="<extra_0>") == ["Add 2 and 3.", "That is 5."]
    shepherd = "Step 1: 3 + 5 = 8 ки\nStep 2: 8 * 2 = 16 ки"
    assert split_steps(shepherd, StepSplit.STEP_TAGS, tag="ки") == [
        "Step 1: 3 + 5 = 8",
        "Step 2: 8 * 2 = 16",
    ]
    # A word-like tag does not cut inside a word (Russian text keeps its "ки").
    assert split_steps("руки вверх ки дальше", StepSplit.STEP_TAGS, tag="ки") == [
        "руки вверх",
        "дальше",
    ]
    xml = "Intro.\n<step>First.</step>\n<step>Second.</step>"
    assert split_steps(xml, StepSplit.STEP_TAGS, tag="<step>") == ["Intro.", "First.", "Second."]
    assert split_steps(xml, StepSplit.STEP_TAGS, tag="</step>") == ["Intro.", "First.", "Second."]
    custom = "a = 1 <|sep|> b = 2 <|sep|>c = 3"
    assert split_steps(custom, StepSplit.STEP_TAGS, tag=" <|sep|> ") == ["a = 1", "b = 2", "c = 3"]
    # Regex metacharacters in a tag are literal.
    assert split_steps("a.*b.*c", StepSplit.STEP_TAGS, tag=".*") == ["a", "b", "c"]


def test_step_tags_need_a_bounded_tag():
    with pytest.raises(ValueError, match="needs a step tag"):
        split_steps("a", StepSplit.STEP_TAGS, tag="  ")
    with pytest.raises(ValueError, match="at most 100"):
        tag_pattern("x" * 101)


def test_step_tags_are_linear():
    text = "step text " * 20_000 + "<extra_0>" * 20_000
    start = time.perf_counter()
    steps = split_steps(text, StepSplit.STEP_TAGS, tag="<extra_0>")
    assert time.perf_counter() - start < 2.0
    assert len(steps) == 1


def test_think_parts():
    assert think_parts("<think>\nA. B.\n</think>\n\nAnswer.") == [
        ("\nA. B.\n", True),
        ("\n\nAnswer.", False),
    ]
    # The template put <think> in the prompt: the text before </think> is reasoning.
    assert think_parts("A.\n</think>\nAnswer.") == [("A.\n", True), ("\nAnswer.", False)]
    # Unclosed (a truncated generation): the rest is reasoning.
    assert think_parts("Pre.<think>A. B.") == [("Pre.", False), ("A. B.", True)]
    # An empty block (Qwen3 without thinking) leaves no reasoning steps.
    assert think_parts("<think>\n\n</think>\n\nAnswer.") == [("\n\nAnswer.", False)]
    assert think_parts("No tags.") == [("No tags.", False)]
    # Upper case, and a stray </think> after the block is dropped.
    assert think_parts("<THINK>a</THINK>b</think>c") == [("a", True), ("b", False), ("c", False)]


def test_split_solution_marks_reasoning_steps_and_never_crosses_the_block():
    text = "<think>\nLet me see.\nTry 2.\n</think>\nSo 2.\nAnswer: 2"
    assert split_solution(text, StepRule(StepSplit.LINE)) == [
        ("Let me see.", True),
        ("Try 2.", True),
        ("So 2.", False),
        ("Answer: 2", False),
    ]
    sentence = "<think>Hmm. Is it 3.5? Yes.</think>It is 3.5. Done."
    assert split_solution(sentence, StepRule(StepSplit.SENTENCE)) == [
        ("Hmm.", True),
        ("Is it 3.5?", True),
        ("Yes.", True),
        ("It is 3.5.", False),
        ("Done.", False),
    ]
    tags = "<think>a<extra_0>b</think>c<extra_0>d<extra_0>"
    assert split_solution(tags, StepRule(StepSplit.STEP_TAGS, tag="<extra_0>")) == [
        ("a", True),
        ("b", True),
        ("c", False),
        ("d", False),
    ]


def test_step_rule_check_names_what_is_wrong():
    assert StepRule(StepSplit.SENTENCE).check() == StepRule(StepSplit.SENTENCE)
    for rule, field, message in [
        (StepRule("words"), "step_split", "unknown step rule"),
        (StepRule(StepSplit.REGEX), "step_split_regex", "needs a regular expression"),
        (StepRule(StepSplit.REGEX, regex="(a"), "step_split_regex", "invalid step regex"),
        (StepRule(StepSplit.STEP_TAGS), "step_split_tag", "needs a step tag"),
    ]:
        with pytest.raises(ValueError, match=message):
            rule.check()
        assert rule.field_of_error() == field


def _parse(data: dict, **options):
    return parse(data, Row(file="f.jsonl", line=1, options=ParseOptions(**options)))


def test_steplab_rows_keep_reasoning_steps():
    row = _parse(
        {"problem": "1+1?", "solution": "<think>one\ntwo</think>\nIt is 2.", "labels": [1, 1, -1]},
        step_split=StepSplit.LINE,
    )
    steps = row.solutions[0].steps
    assert [(s.text, s.thinking, s.label) for s in steps] == [
        ("one", True, 1),
        ("two", True, 1),
        ("It is 2.", False, -1),
    ]
    objects = _parse(
        {
            "problem": "1+1?",
            "steps": [{"text": "maybe 2", "thinking": True}, "It is 2.", {"text": "Done."}],
        }
    )
    assert [(s.text, s.thinking) for s in objects.solutions[0].steps] == [
        ("maybe 2", True),
        ("It is 2.", False),
        ("Done.", False),
    ]


def test_steplab_rows_name_the_field_of_a_bad_thinking_flag_or_rule():
    from labeling.importers import ImportFileError

    with pytest.raises(ImportFileError) as bad:
        _parse({"problem": "p", "steps": [{"text": "a", "thinking": "yes"}]})
    assert bad.value.field == "steps[0].thinking"
    with pytest.raises(ImportFileError) as rule:
        _parse({"problem": "p", "solution": "a b"}, step_split=StepSplit.STEP_TAGS)
    assert rule.value.field == "solution" and "step tag" in rule.value.message
