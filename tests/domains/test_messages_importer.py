"""The OpenAI-messages importer: trajectories as steps, clear errors, atomic imports."""

import json
from pathlib import Path

import pytest

from labeling.importers import ImportFileError, detect_format, open_rows
from labeling.models import Problem, Solution, Step
from labeling.services.imports import import_file
from tests.factories import ProjectFactory

DEMO = Path(__file__).resolve().parents[2] / "labeling" / "demo" / "agent_demo.jsonl"


def _row(**extra) -> dict:
    row = {
        "id": "t1",
        "tools": [{"type": "function", "function": {"name": "search", "parameters": {}}}],
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Find X."},
            {
                "role": "assistant",
                "content": "Searching.",
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "search", "arguments": '{"q": "X"}'},
                    },
                    {
                        "id": "c2",
                        "type": "function",
                        "function": {"name": "search", "arguments": '{"q": '},
                    },
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '{"hits": 1}'},
            {"role": "assistant", "content": [{"type": "text", "text": "Found **X**."}]},
        ],
    }
    row.update(extra)
    return row


def _parse(tmp_path, rows, fmt="auto"):
    path = tmp_path / "agent.jsonl"
    path.write_text("".join(r if isinstance(r, str) else json.dumps(r) + "\n" for r in rows))
    with open_rows(path, fmt=fmt, filename="agent.jsonl") as stream:
        parsed = list(stream)
        return stream.format, parsed


def test_a_trajectory_becomes_a_problem_and_steps(tmp_path):
    fmt, [row] = _parse(tmp_path, [_row(labels=[1, 1, -1])])
    assert fmt == "messages"
    assert row.problem.text == "Find X."
    assert row.problem.metadata["system"] == "Be brief."
    assert row.problem.metadata["tools"][0]["function"]["name"] == "search"
    [solution] = row.solutions
    assert solution.external_id == "t1"
    kinds = [(s.metadata["kind"], s.text) for s in solution.steps]
    assert kinds == [
        ("message", "Searching."),
        ("tool_call", 'search({"q": "X"})'),
        ("tool_call", 'search({"q": )'),
        ("observation", '{"hits": 1}'),
        ("message", "Found **X**."),
    ]
    call = solution.steps[2].metadata
    # A malformed call is imported as it is: flagging it is the agent checker's job.
    assert call == {
        "kind": "tool_call",
        "role": "assistant",
        "name": "search",
        "arguments": '{"q": ',
        "tool_call_id": "c2",
    }
    assert solution.steps[3].metadata["tool_call_id"] == "c1"
    assert [s.label for s in solution.steps] == [1, 1, -1, None, None]


def test_detection():
    assert detect_format({"messages": []}) == "messages"
    assert detect_format({"problem": "p", "steps": []}) == "steplab"


def _messages(*extra: dict) -> list[dict]:
    return [{"role": "user", "content": "Q"}, *extra]


CALL = {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        ({"messages": "hi"}, "messages", "expected a list"),
        ({"messages": [{"role": "robot", "content": "x"}]}, "messages[0].role", "robot"),
        ({"messages": [{"role": "assistant", "content": "x"}]}, "messages", "no user message"),
        ({"messages": _messages()}, "messages", "no assistant or tool message"),
        (
            {"messages": [{"role": "user", "content": " "}, {"role": "assistant", "content": "a"}]},
            "messages[0].content",
            "empty",
        ),
        ({"messages": _messages({"role": "assistant"})}, "messages[1]", "neither content"),
        (
            {"messages": _messages({"role": "tool", "content": "out"})},
            "messages[1].tool_call_id",
            "missing field",
        ),
        (
            {"messages": _messages({"role": "assistant", "tool_calls": [{"id": "c"}]})},
            "messages[1].tool_calls[0].function",
            "missing field",
        ),
        (
            {
                "messages": _messages(
                    {
                        "role": "assistant",
                        "tool_calls": [{"id": "c", "function": {"arguments": "{}"}}],
                    }
                )
            },
            "messages[1].tool_calls[0].function.name",
            "missing field",
        ),
        (
            {
                "messages": _messages(
                    {
                        "role": "assistant",
                        "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": 3}}],
                    }
                )
            },
            "messages[1].tool_calls[0].function.arguments",
            "expected a JSON string",
        ),
        (
            {"messages": _messages({"role": "assistant", "content": 5})},
            "messages[1].content",
            "expected a string or a list of parts",
        ),
        (
            {"messages": _messages({"role": "assistant", "tool_calls": [CALL]}), "labels": [1, 1]},
            "labels",
            "2 labels for 1 steps",
        ),
        (
            {"messages": _messages({"role": "assistant", "tool_calls": [CALL]}), "labels": [2]},
            "labels[0]",
            "expected -1, 0 or 1",
        ),
        (
            {"messages": _messages({"role": "assistant", "content": "a"}), "tools": {"f": 1}},
            "tools",
            "expected a list",
        ),
    ],
)
def test_bad_rows_name_the_line_and_field(tmp_path, row, field, message):
    good = {"messages": _messages({"role": "assistant", "content": "fine"})}
    with pytest.raises(ImportFileError) as exc:
        _parse(tmp_path, [good, row], fmt="messages")
    assert (exc.value.line, exc.value.field) == (2, field)
    assert message in exc.value.message


@pytest.mark.django_db
def test_a_bad_line_imports_nothing(tmp_path):
    project = ProjectFactory(domain="agent")
    path = tmp_path / "agent.jsonl"
    rows = [_row(id=f"t{i}") for i in range(3)] + [{"messages": [{"role": "tool"}]}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(ImportFileError) as exc:
        import_file(project=project, path=path, fmt="auto", labels_as="none")
    assert exc.value.line == 4
    assert Solution.objects.count() == Step.objects.count() == Problem.objects.count() == 0


@pytest.mark.django_db
def test_the_demo_file_imports_with_step_metadata_and_again_creates_nothing():
    project = ProjectFactory(domain="agent")
    result = import_file(project=project, path=DEMO, fmt="auto", labels_as="none")
    assert result.format == "messages" and result.solutions_created == 4
    step = Step.objects.filter(solution__external_id="agent-tests-1", index=2).get()
    assert step.metadata["kind"] == "tool_call" and step.metadata["name"] == "read_file"
    problem = Problem.objects.get(solutions__external_id="agent-flights-1")
    assert [t["function"]["name"] for t in problem.metadata["tools"]] == [
        "search_flights",
        "book_flight",
    ]
    again = import_file(project=project, path=DEMO, fmt="auto", labels_as="none")
    assert again.solutions_created == 0 and Solution.objects.count() == 4


def test_an_assistant_messages_reasoning_comes_first_as_reasoning_steps(tmp_path):
    """`<think>` blocks in the content and a `reasoning_content` field become reasoning steps
    (cut by the step rule, line by default) before the message's own step and its calls."""
    row = _row()
    row["messages"][2]["content"] = "<think>\nLook it up.\nUse search.\n</think>\nSearching."
    row["messages"][4] = {
        "role": "assistant",
        "reasoning_content": "One hit: X.",
        "content": "Found **X**.",
    }
    _, [parsed] = _parse(tmp_path, [row])
    steps = parsed.solutions[0].steps
    assert [(s.text, s.thinking, s.metadata.get("kind")) for s in steps] == [
        ("Look it up.", True, "message"),
        ("Use search.", True, "message"),
        ("Searching.", False, "message"),
        (steps[3].text, False, "tool_call"),
        (steps[4].text, False, "tool_call"),
        ('{"hits": 1}', False, "observation"),
        ("One hit: X.", True, "message"),
        ("Found **X**.", False, "message"),
    ]
    bad = _row()
    bad["messages"][4]["reasoning_content"] = 3
    with pytest.raises(ImportFileError) as error:
        _parse(tmp_path, [bad])
    assert error.value.field == "messages[4].reasoning_content"
