"""The agent checker on a table of tool calls and observations: −1 with evidence, never +1."""

import json

import pytest

from autolabel.engines.agent import AgentEngine, check_call, check_observation
from autolabel.engines.base import SolutionInput
from autolabel.registry import ENGINES

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city"],
        },
    },
}
TOOLS = {"get_weather": WEATHER["function"]["parameters"], "ping": {}}


def _call(name: str, arguments: str) -> dict:
    return {"kind": "tool_call", "name": name, "arguments": arguments, "tool_call_id": "c1"}


@pytest.mark.parametrize(
    ("name", "arguments", "tools", "check", "in_message"),
    [
        ("get_weather", '{"city": "Oslo"', TOOLS, "bad_arguments", "not valid JSON"),
        ("get_weather", "[1, 2]", TOOLS, "bad_arguments", "not a JSON object"),
        ("get_weather", "", TOOLS, "bad_arguments", "not valid JSON"),
        ("get_wether", '{"city": "Oslo"}', TOOLS, "unknown_tool", "get_weather, ping"),
        ("get_weather", '{"days": 3}', TOOLS, "schema", "'city' is a required property"),
        ("get_weather", '{"city": "Oslo", "days": "3"}', TOOLS, "schema", "'3' is not of type"),
        ("get_weather", '{"city": "Oslo"}', TOOLS, None, None),
        ("ping", "{}", TOOLS, None, None),
        ("anything", '{"x": 1}', None, None, None),  # no tool list: names are not checked
        ("anything", '{"x": 1', None, "bad_arguments", "line 1, column 8"),
    ],
)
def test_tool_calls(name, arguments, tools, check, in_message):
    evidence = check_call(_call(name, arguments), tools)
    if check is None:
        assert evidence is None
    else:
        assert evidence is not None and evidence["check"] == check
        assert in_message in evidence["message"], evidence


TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "main.py", line 3, in <module>\n'
    "    print(rows[5])\n"
    "IndexError: list index out of range\n"
)


@pytest.mark.parametrize(
    ("text", "in_message"),
    [
        (TRACEBACK, "traceback: IndexError: list index out of range"),
        (json.dumps({"stdout": "", "stderr": TRACEBACK}), "traceback: IndexError"),
        (json.dumps({"error": "missing required parameter: date"}), "error field: missing"),
        (json.dumps({"error": {"code": 42, "message": "quota"}}), "error field:"),
        (json.dumps({"status": 404, "body": "not found"}), "HTTP status 404"),
        (json.dumps({"status_code": 502}), "HTTP status 502"),
        ("HTTP/1.1 503 Service Unavailable\n\nupstream timeout", "HTTP status 503"),
        ("Request failed with status code 401", "HTTP status 401"),
        (json.dumps({"exit_code": 2, "stdout": "usage: ..."}), "exit code 2"),
        (json.dumps({"returncode": -9}), "exit code -9"),
        ("make: *** [all] Error 2\nProcess exited with code 2", "exit code 2"),
        ("Error: could not parse arguments", "Error: could not parse arguments"),
        ("fatal: not a git repository", "fatal: not a git repository"),
    ],
)
def test_failed_observations(text, in_message):
    evidence = check_observation(text)
    assert evidence is not None and evidence["check"] == "observation_error"
    assert in_message in evidence["message"], evidence


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"error": None, "result": [1, 2]}),
        json.dumps({"status": 200, "daily": [{"t_max": 2.4}]}),
        json.dumps({"exit_code": 0, "stdout": "ok"}),
        json.dumps({"status": "confirmed", "booking_ref": "QX7RPL"}),
        "0.97\n",
        "The page says: errors are rare; HTTP is a protocol.",
        "Exit code: 0",
        "No errors found: everything passed.",
        "Listed 404 files.",
    ],
)
def test_clean_observations_get_nothing(text):
    assert check_observation(text) is None


def _trajectory(metas: list[dict], texts: list[str] | None = None, tools=None) -> SolutionInput:
    texts = texts or [m.get("arguments", "") for m in metas]
    return SolutionInput(
        problem="p",
        gold_answer="",
        steps=tuple(texts),
        step_metadata=tuple(metas),
        problem_metadata={"tools": tools} if tools is not None else {},
    )


def test_a_trajectory_gets_minus_one_on_each_failing_step_and_nothing_else():
    metas = [
        {"kind": "message", "role": "assistant"},
        {
            "kind": "tool_call",
            "name": "get_weather",
            "arguments": '{"city": "Oslo"}',
            "tool_call_id": "a",
        },
        {"kind": "observation", "tool_call_id": "a"},
        {
            "kind": "tool_call",
            "name": "get_weather",
            "arguments": '{"city": 1}',
            "tool_call_id": "b",
        },
        {"kind": "observation", "tool_call_id": "b"},
        {
            "kind": "tool_call",
            "name": "get_weather",
            "arguments": '{"city": "Rome"}',
            "tool_call_id": "c",
        },
        {"kind": "message", "role": "assistant"},
    ]
    texts = ["I'll check.", "", '{"temp": 3}', "", '{"error": "bad city"}', "", "Done."]
    result = AgentEngine()(_trajectory(metas, texts, tools=[WEATHER]), {})
    assert result.source == "agent"
    got = {s.step_index: (s.value, s.evidence["check"]) for s in result.suggestions}
    assert got == {
        3: (-1, "schema"),
        4: (-1, "observation_error"),
        5: (-1, "unanswered"),
    }
    assert all(s.value == -1 for s in result.suggestions)  # never +1
    unanswered = next(s for s in result.suggestions if s.step_index == 5)
    assert "no observation answers the call c" in unanswered.evidence["message"]


def test_checks_param_selects_checks_and_is_validated():
    metas = [
        {"kind": "tool_call", "name": "x", "arguments": "{", "tool_call_id": "a"},
        {"kind": "observation", "tool_call_id": "a"},
    ]
    solution = _trajectory(metas, ["", TRACEBACK])
    everything = AgentEngine()(solution, {})
    assert [s.step_index for s in everything.suggestions] == [0, 1]
    only = AgentEngine()(solution, {"checks": ["observation_error"]})
    assert [s.step_index for s in only.suggestions] == [1]
    with pytest.raises(ValueError, match="checks must be"):
        AgentEngine()(solution, {"checks": ["vibes"]})
    with pytest.raises(ValueError, match="unknown agent params"):
        AgentEngine()(solution, {"strict": True})


def test_plain_steps_without_metadata_get_nothing():
    solution = SolutionInput(problem="p", gold_answer="", steps=("a", "Traceback? no"))
    assert AgentEngine()(solution, {}).suggestions == []


def test_the_engine_is_registered():
    assert isinstance(ENGINES["agent"], AgentEngine)


@pytest.mark.django_db
def test_an_agent_run_on_the_demo_trajectories():
    from pathlib import Path

    from autolabel.services import (
        autolabel_item_process,
        autolabel_run_chunks,
        autolabel_run_create,
    )
    from labeling.models import Suggestion
    from labeling.services.imports import import_file
    from tests.factories import ProjectFactory

    project = ProjectFactory(domain="agent")
    demo = Path(__file__).resolve().parents[2] / "labeling" / "demo" / "agent_demo.jsonl"
    import_file(project=project, path=demo, fmt="messages", labels_as="none")
    run = autolabel_run_create(project=project, sources=["agent"])
    for chunk in autolabel_run_chunks(run=run):
        for solution_id in chunk:
            autolabel_item_process(run=run, solution_id=solution_id)
    rows = Suggestion.objects.filter(source="agent").values_list(
        "step__solution__external_id", "step__index", "value", "evidence__check"
    )
    assert sorted(rows) == [
        ("agent-flights-2", 0, -1, "schema"),  # search_flights without its date
        ("agent-flights-2", 1, -1, "observation_error"),  # {"error": ...}
        ("agent-flights-2", 3, -1, "unknown_tool"),  # reserve_seat is not a tool
        ("agent-tests-1", 1, -1, "observation_error"),  # pytest exit code 1
        ("agent-tests-1", 2, -1, "bad_arguments"),  # truncated JSON
        ("agent-tests-1", 3, -1, "observation_error"),  # "Error: could not parse arguments"
        ("agent-weather-1", 1, -1, "observation_error"),  # HTTP 503
    ]
