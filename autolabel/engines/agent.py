"""Agent trajectories: flag malformed tool calls and failed observations. Never guesses +1.

Steps carry `metadata` from the messages importer: {"kind": "tool_call" | "observation" |
"message", "name", "arguments" (the raw string), "tool_call_id"}. Verdicts, each −1 with
evidence {"check", "message", ...}:

* a tool call whose `arguments` are not valid JSON, or not a JSON object (`bad_arguments`);
* a call to a tool the problem does not list, when its metadata lists tools (`unknown_tool`);
* arguments that break the tool's JSON schema, when given: a missing required argument, a
  wrong type, ... (`schema`, with the failing path);
* a call whose `tool_call_id` no observation answers (`unanswered`);
* an observation that reports an error (`observation_error`): a Python traceback, a JSON
  object with a non-empty `error` field, text that starts with `Error:` (or `Fatal:`), an
  HTTP 4xx/5xx status, a non-zero exit code.

Steps that pass get nothing: a well-formed call can still be the wrong call.
Params (optional): `checks`, the subset of the check names above to run (all by default).
"""

from __future__ import annotations

import json
import re
from typing import Any

from annotate.queues import Queue
from autolabel.calibration import calibrate
from autolabel.engines.base import EngineResult, SolutionInput, StepSuggestion
from autolabel.engines.params import check_keys

SOURCE = "agent"
AGENT = "agent-checker/v1"
CHECKS = ("bad_arguments", "unknown_tool", "schema", "unanswered", "observation_error")
MAX_EXCERPT = 300

_TRACEBACK_HEAD = "Traceback (most recent call last):"
_EXCEPTION_LINE = re.compile(r"^(\w[\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b.*)$", re.M)
_HTTP_LINE = re.compile(r"\bHTTP/\d(?:\.\d)?\s+([45]\d\d)\b[^\n]*")
_HTTP_PROSE = re.compile(r"\b(?:status(?:[ _]code)?|HTTP(?: error)?)\s*[:=]?\s*([45]\d\d)\b", re.I)
_EXIT_PROSE = re.compile(
    r"\b(?:exit(?:ed)?(?: with)?[ _](?:code|status)|return[ _]?code|exit_code)\s*[:=]?\s*(-?\d+)",
    re.I,
)
_ERROR_LINE = re.compile(r"\A\s*((?:error|fatal|exception)\b\s*[:!-].*)", re.I)
_STATUS_KEYS = ("status", "status_code", "statusCode", "http_status", "code")
_EXIT_KEYS = ("exit_code", "exitCode", "returncode", "return_code", "exit_status")


def _excerpt(text: str) -> str:
    return text if len(text) <= MAX_EXCERPT else text[: MAX_EXCERPT - 1] + "…"


def _tools(metadata: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    """The problem's tools by name ({name: JSON schema or {}}), or None when it lists none."""
    tools = metadata.get("tools")
    if not isinstance(tools, list):
        return None
    named: dict[str, dict[str, Any]] = {}
    for tool in tools:
        spec = tool.get("function", tool) if isinstance(tool, dict) else None
        if isinstance(spec, dict) and isinstance(spec.get("name"), str):
            schema = spec.get("parameters")
            named[spec["name"]] = schema if isinstance(schema, dict) else {}
    return named


def _schema_error(arguments: Any, schema: dict[str, Any]) -> dict[str, Any] | None:
    if not schema:
        return None
    import jsonschema

    try:
        validator_cls = jsonschema.validators.validator_for(schema)
        validator = validator_cls(schema)
        error = jsonschema.exceptions.best_match(validator.iter_errors(arguments))
    except jsonschema.exceptions.SchemaError as exc:
        return {"message": f"the tool's schema is invalid: {exc.message}", "path": ""}
    if error is None:
        return None
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return {"message": error.message, "path": path.lstrip(".")}


def check_call(
    meta: dict[str, Any], tools: dict[str, dict[str, Any]] | None
) -> dict[str, Any] | None:
    """The first problem of one tool call, as evidence, or None."""
    name = meta.get("name") or ""
    raw = meta.get("arguments")
    raw = "" if raw is None else raw
    try:
        arguments = json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError as exc:
        return {
            "check": "bad_arguments",
            "message": f"the arguments of {name} are not valid JSON: {exc.msg} "
            f"(line {exc.lineno}, column {exc.colno})",
            "arguments": _excerpt(raw),
        }
    if not isinstance(arguments, dict):
        return {
            "check": "bad_arguments",
            "message": f"the arguments of {name} are not a JSON object",
            "arguments": _excerpt(str(raw)),
        }
    if tools is not None and name not in tools:
        return {
            "check": "unknown_tool",
            "message": f"{name} is not one of the problem's tools "
            f"({', '.join(sorted(tools)) or 'none'})",
        }
    if tools is not None and (error := _schema_error(arguments, tools[name])):
        return {
            "check": "schema",
            "message": f"the arguments of {name} do not match its schema: {error['message']}",
            "path": error["path"],
        }
    return None


def _json_error(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    error = value.get("error")
    if error not in (None, "", False, {}, []):
        text = error if isinstance(error, str) else json.dumps(error, ensure_ascii=False)
        return f"error field: {_excerpt(text)}"
    for key in _STATUS_KEYS:
        status = value.get(key)
        if isinstance(status, int) and not isinstance(status, bool) and 400 <= status <= 599:
            return f"HTTP status {status}"
    for key in _EXIT_KEYS:
        code = value.get(key)
        if isinstance(code, int) and not isinstance(code, bool) and code != 0:
            return f"exit code {code}"
    return None


def check_observation(text: str) -> dict[str, Any] | None:
    """What in one observation says the tool failed, as evidence, or None."""
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if (found := _json_error(parsed)) is not None:
        return {"check": "observation_error", "message": found, "excerpt": _excerpt(text)}
    # In JSON, look inside its strings too (a traceback in "stderr").
    haystack = text if parsed is None else "\n".join(_strings(parsed))
    if (start := haystack.find(_TRACEBACK_HEAD)) >= 0:
        last = _EXCEPTION_LINE.search(haystack, start)
        return {
            "check": "observation_error",
            "message": f"traceback: {last.group(1).strip() if last else 'an exception was raised'}",
            "excerpt": _excerpt(haystack[start:] if last is None else last.group(1)),
        }
    if parsed is None and (match := _ERROR_LINE.match(text)):
        line = match.group(1).splitlines()[0]
        return {"check": "observation_error", "message": _excerpt(line), "excerpt": _excerpt(line)}
    if parsed is None:
        for pattern, what in ((_HTTP_LINE, "HTTP status"), (_HTTP_PROSE, "HTTP status")):
            if match := pattern.search(text):
                return {
                    "check": "observation_error",
                    "message": f"{what} {match.group(1)}",
                    "excerpt": _excerpt(match.group(0)),
                }
        if (match := _EXIT_PROSE.search(text)) and int(match.group(1)) != 0:
            return {
                "check": "observation_error",
                "message": f"exit code {match.group(1)}",
                "excerpt": _excerpt(match.group(0)),
            }
    return None


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


class AgentEngine:
    name = SOURCE
    queue = Queue.DEFAULT

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        check_keys(params, {"checks"}, engine=self.name)
        checks = params.get("checks", CHECKS)
        if not isinstance(checks, list | tuple) or set(checks) - set(CHECKS):
            raise ValueError(f"checks must be a list of {', '.join(CHECKS)}, got {checks!r}")
        result = EngineResult(source=SOURCE, agent=AGENT)
        metas = list(solution.step_metadata) + [{}] * (
            len(solution.steps) - len(solution.step_metadata)
        )
        tools = _tools(solution.problem_metadata)
        answered = {m.get("tool_call_id") for m in metas if m.get("kind") == "observation"} - {
            None,
            "",
        }
        for index, (text, meta) in enumerate(zip(solution.steps, metas, strict=False)):
            evidence: dict[str, Any] | None = None
            if meta.get("kind") == "tool_call":
                evidence = check_call(meta, tools)
                call_id = meta.get("tool_call_id")
                if evidence is None and call_id and call_id not in answered:
                    evidence = {
                        "check": "unanswered",
                        "message": f"no observation answers the call {call_id} "
                        f"({meta.get('name')})",
                    }
            elif meta.get("kind") == "observation":
                evidence = check_observation(text)
            if evidence is not None and evidence["check"] in checks:
                evidence["step_kind"] = meta.get("kind")
                result.suggestions.append(
                    StepSuggestion(step_index=index, value=-1, evidence=evidence)
                )
        return calibrate(result)
