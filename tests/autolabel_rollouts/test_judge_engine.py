"""The judge engine over HTTP: scripted critic replies from a stub, and a real server."""

import re

import pytest

from autolabel.engines.base import SolutionInput
from autolabel.engines.judge import JudgeEngine

from .servers import StubServer

STEPS = ("Let x = 2.", "Then 2x = 5.", "So x + 1 = 3.")
SOLUTION = SolutionInput("Solve 2x = 4; what is x + 1?", "3", STEPS, "3")


def chat_replies(*replies):
    def handle(path, body):
        if path != "/v1/chat/completions":
            return 404, {"detail": "Not Found"}
        picked = replies[: body.get("n", 1)]
        return 200, {
            "choices": [
                {"index": i, "message": {"role": "assistant", "content": r}}
                for i, r in enumerate(picked)
            ]
        }

    return handle


def judge(stub, **params):
    backend = {"kind": "openai", "base_url": stub.url, "model": "critic"}
    return JudgeEngine()(SOLUTION, {"backend": backend, **params})


def test_first_error_marks_earlier_steps_good_and_later_ones_unlabeled() -> None:
    reply = "Paragraph 0 is fine. Paragraph 1 is wrong: 2x = 4, not 5.\n\n\\boxed{1}"
    with StubServer(chat_replies(reply)) as stub:
        result = judge(stub)
    assert result.source == "judge" and result.agent == f"judge:openai:{stub.url}/critic"
    assert [(s.step_index, s.value) for s in result.suggestions] == [(0, 1), (1, -1)]
    error = result.suggestions[1].evidence
    assert error["rationale"] == reply and error["first_error"] == 1 and error["votes"] == {"1": 1}
    assert "rationale" not in result.suggestions[0].evidence
    [(path, body)] = stub.requests
    assert body["temperature"] == 0.0 and body["max_tokens"] == 1024 and "n" not in body
    content = body["messages"][0]["content"]
    assert "<paragraph_1>\nThen 2x = 5.\n</paragraph_1>" in content


def test_no_error_labels_every_step_good() -> None:
    with StubServer(chat_replies("All steps check out. \\boxed{-1}")) as stub:
        result = judge(stub)
    assert [s.value for s in result.suggestions] == [1, 1, 1]
    assert result.evidence["first_error"] == -1


def test_votes_take_the_majority() -> None:
    replies = ("\\boxed{2}", "\\boxed{-1}", "It is paragraph 2 that is wrong.")
    with StubServer(chat_replies(*replies)) as stub:
        result = judge(stub, votes=3, seed=4)
    assert [(s.step_index, s.value) for s in result.suggestions] == [(0, 1), (1, 1), (2, -1)]
    assert result.suggestions[2].score == pytest.approx(2 / 3)
    assert result.suggestions[2].evidence["votes"] == {"2": 2, "-1": 1}
    body = stub.requests[0][1]
    assert body["n"] == 3 and body["temperature"] == 0.7 and body["seed"] == 4


def test_an_unreadable_reply_gives_no_suggestions_and_keeps_the_reply() -> None:
    with StubServer(chat_replies("Hmm. Hard to say, honestly.")) as stub:
        result = judge(stub)
    assert result.suggestions == []
    assert result.evidence["unparsed"] is True
    assert result.evidence["replies"] == ["Hmm. Hard to say, honestly."]


def test_judge_params_are_checked() -> None:
    with pytest.raises(ValueError, match="chat backend"):
        JudgeEngine()(SOLUTION, {"backend": {"kind": "scripted", "gold": "1"}})
    with pytest.raises(ValueError, match="unknown judge params"):
        JudgeEngine()(SOLUTION, {"backend": {"kind": "openai"}, "n": 3})


def test_judge_against_transformers_serve(served_model, tiny_model) -> None:
    """The tiny model was only taught to end its rollout prompt with "\\boxed{4}." or
    "\\boxed{5}."; to the critic prompt it answers with one of the two (its text before the
    box varies from build to build). Index k is read as the first error of a six-step solution
    (k steps before it correct), and is out of range (unknown) for a three-step one."""
    backend = {"kind": "openai", "base_url": served_model, "model": str(tiny_model)}
    six = SolutionInput("Q", "1", tuple(f"step {i}" for i in range(6)), "")
    result = JudgeEngine()(six, {"backend": backend, "max_tokens": 24})
    reply = result.suggestions[-1].evidence["rationale"]
    [k] = map(int, re.findall(r"\\boxed\{(\d)\}", reply))
    assert k in (4, 5) and result.evidence["first_error"] == k
    assert [s.value for s in result.suggestions] == [1] * k + [-1]
    short = JudgeEngine()(SOLUTION, {"backend": backend, "max_tokens": 24})
    [short_reply] = short.evidence["replies"]
    assert re.findall(r"\\boxed\{(\d)\}", short_reply) in (["4"], ["5"])
    assert short.suggestions == []
