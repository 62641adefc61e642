"""Agent trajectories as an OpenAI-style chat: one trajectory a line.

    {"messages": [{"role": "system" | "user" | "assistant" | "tool", "content": str | [parts],
                   "tool_calls": [{"id", "type": "function",
                                   "function": {"name", "arguments": JSON string}}],
                   "tool_call_id": str}, ...],
     "tools": [{"type": "function", "function": {"name", "parameters": JSON schema}}],
     "id", "problem_id", "answer", "generator", "source", "metadata",
     "labels": [-1 | 0 | 1 | null, ...]}          (all but messages optional)

Content may be a list of parts: {"type": "text", "text"} and {"type": "image_url",
"image_url": {"url": URL | data: URI}}; images of the first user message go to the problem,
those of a later message to its first step (stored like steplab's `images`).

The first user message is the problem (system messages before it go to the problem's
metadata as `system`, `tools` as `tools`). After it every assistant message becomes steps: its
text (if any) one `message` step, then one `tool_call` step per call; every tool message is an
`observation` step; a later user message is a `message` step with role `user`. Step metadata:
{"kind", "role", "name", "arguments", "tool_call_id"} (what applies). A call's `arguments`
stay the raw string, valid JSON or not: flagging malformed calls is the `agent` checker's job.
`labels` have one entry per step, in that order.

An assistant message's reasoning (its `reasoning_content`, as DeepSeek's and vLLM's APIs return
it, and the `<think>...</think>` blocks of its content) comes first, as reasoning steps
(Step.thinking) cut by the import's step rule (labeling.steps.splitting); the rest of its text is
the message step.
"""

import json
from typing import Any

from labeling.steps.splitting import split_steps, think_parts

from .fields import Row, json_type
from .ids import problem_id
from .images import parse_image
from .trajectory import trajectory_solution
from .types import ParsedProblem, ParsedRow, ParsedStep

ROLES = ("system", "user", "assistant", "tool")


class _Images:
    """Images met in content parts, by message index, and the bytes of their data: URIs."""

    def __init__(self) -> None:
        self.by_message: dict[str, list[dict]] = {}
        self.media: dict[str, bytes] = {}


def _content(row: Row, message: dict[str, Any], at: str, images: _Images | None = None) -> str:
    """A message's text: a string, null, or a list of {"type": "text", "text"} parts (and
    {"type": "image_url", "image_url": {"url"}} parts, whose images go to `images`)."""
    content = message.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise row.error(
            f"{at}.content", f"expected a string or a list of parts, got {json_type(content)}"
        )
    texts = []
    for i, part in enumerate(content):
        path = f"{at}.content[{i}]"
        if isinstance(part, dict) and part.get("type") == "image_url" and images is not None:
            spec = part.get("image_url")
            url = spec.get("url") if isinstance(spec, dict) else spec
            ref = parse_image(row, url, f"{path}.image_url.url", images.media)
            images.by_message.setdefault(at, []).append(ref)
            continue
        if not isinstance(part, dict) or part.get("type") != "text":
            raise row.error(path, 'expected a {"type": "text" | "image_url", ...} part')
        texts.append(row.text(part.get("text"), f"{path}.text"))
    return "\n".join(texts)


def _call_step(row: Row, call: Any, at: str) -> ParsedStep:
    if not isinstance(call, dict):
        raise row.error(at, f"expected an object, got {json_type(call)}")
    function = row.mapping(call, "function", at)
    name = row.string(function, "name", f"{at}.function")
    if not name.strip():
        raise row.error(f"{at}.function.name", "is empty")
    arguments = function.get("arguments", "")
    if isinstance(arguments, dict):  # some exporters write the object itself
        arguments = json.dumps(arguments, ensure_ascii=False)
    elif arguments is None:
        arguments = ""
    elif not isinstance(arguments, str):
        raise row.error(
            f"{at}.function.arguments", f"expected a JSON string, got {json_type(arguments)}"
        )
    call_id = row.string(call, "id", at, optional=True)
    return ParsedStep(
        text=f"{name}({arguments})",
        metadata={
            "kind": "tool_call",
            "role": "assistant",
            "name": name,
            "arguments": arguments,
            "tool_call_id": call_id,
        },
    )


def _reasoning(row: Row, message: dict[str, Any], at: str, text: str) -> tuple[list[str], str]:
    """An assistant message's reasoning steps and the text left for its message step."""
    given = row.string(message, "reasoning_content", at, optional=True)
    if not given and "think>" not in text.lower():
        return [], text
    parts = think_parts(text)
    if given.strip():
        parts.insert(0, (given, True))
    options = row.options
    try:
        reasoning = [
            step
            for part, thinking in parts
            if thinking
            for step in split_steps(
                part, options.step_split, options.step_split_regex, options.step_split_tag
            )
        ]
    except ValueError as exc:
        raise row.error(f"{at}.content", str(exc)) from exc
    return reasoning, "\n\n".join(part.strip() for part, thinking in parts if not thinking)


def _steps(row: Row, messages: list[Any], start: int, images: _Images) -> list[ParsedStep]:
    steps: list[ParsedStep] = []
    for i in range(start, len(messages)):
        at = f"messages[{i}]"
        message = messages[i]
        role = message["role"]
        first = len(steps)
        text = _content(row, message, at, images)
        if role == "assistant":
            calls = message.get("tool_calls") or []
            if not isinstance(calls, list):
                raise row.error(f"{at}.tool_calls", f"expected a list, got {json_type(calls)}")
            reasoning, text = _reasoning(row, message, at, text)
            steps += [
                ParsedStep(text=r, metadata={"kind": "message", "role": role}, thinking=True)
                for r in reasoning
            ]
            if text.strip() or (at in images.by_message and not calls):
                steps.append(ParsedStep(text=text, metadata={"kind": "message", "role": role}))
            steps += [_call_step(row, c, f"{at}.tool_calls[{j}]") for j, c in enumerate(calls)]
            if len(steps) == first:
                raise row.error(at, "an assistant message with neither content nor tool_calls")
        elif role == "tool":
            call_id = row.string(message, "tool_call_id", at)
            metadata = {"kind": "observation", "role": role, "tool_call_id": call_id}
            if isinstance(message.get("name"), str):
                metadata["name"] = message["name"]
            steps.append(ParsedStep(text=text, metadata=metadata))
        elif text.strip() or at in images.by_message:  # a later user (or system) turn
            steps.append(ParsedStep(text=text, metadata={"kind": "message", "role": role}))
        if at in images.by_message and len(steps) > first:
            # A message's images go with its first step (its text, or an observation).
            steps[first].metadata["images"] = images.by_message[at]
    return steps


def _tools(row: Row, data: dict[str, Any]) -> list[dict[str, Any]] | None:
    tools = data.get("tools")
    if tools is None:
        return None
    if not isinstance(tools, list):
        raise row.error("tools", f"expected a list, got {json_type(tools)}")
    for i, tool in enumerate(tools):
        spec = tool.get("function", tool) if isinstance(tool, dict) else None
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
            raise row.error(f"tools[{i}]", 'expected {"type": "function", "function": {"name"}}')
        if not isinstance(spec.get("parameters", {}), dict):
            raise row.error(f"tools[{i}].function.parameters", "expected a JSON schema object")
    return tools


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    messages = row.array(data, "messages")
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            raise row.error(f"messages[{i}]", f"expected an object, got {json_type(message)}")
        role = message.get("role")
        if role not in ROLES:
            raise row.error(
                f"messages[{i}].role", f"expected one of {', '.join(ROLES)}, got {role!r}"
            )
    first_user = next((i for i, m in enumerate(messages) if m["role"] == "user"), None)
    if first_user is None:
        raise row.error("messages", "no user message: the first one is the problem")
    images = _Images()
    text = _content(row, messages[first_user], f"messages[{first_user}]", images)
    if not text.strip():
        raise row.error(
            f"messages[{first_user}].content", "the problem (first user message) is empty"
        )
    steps = _steps(row, messages, first_user + 1, images)
    if not steps:
        raise row.error("messages", "no assistant or tool message after the problem")
    problem_metadata: dict[str, Any] = {}
    system = [_content(row, m, f"messages[{i}]") for i, m in enumerate(messages[:first_user])]
    if any(s.strip() for s in system):
        problem_metadata["system"] = "\n\n".join(s for s in system if s.strip())
    if (tools := _tools(row, data)) is not None:
        problem_metadata["tools"] = tools
    if problem_images := images.by_message.get(f"messages[{first_user}]"):
        problem_metadata["images"] = problem_images
    solution, pid, source = trajectory_solution(
        row,
        data,
        fmt="messages",
        steps=steps,
        content=lambda generator: (text, generator, [[s.text, s.metadata] for s in steps]),
    )
    problem = ParsedProblem(
        text=text,
        external_id=pid or problem_id(text),
        answer=row.string(data, "answer", optional=True),
        source=source,
        metadata=problem_metadata,
    )
    return ParsedRow(line=row.line, problem=problem, solutions=[solution], media=images.media)
