"""Robotics / embodied episodes: one episode a line, its steps a trajectory of subgoals.

    {"task": str,                                   the instruction (the problem)
     "steps": [{"kind": "plan" | "action" | "observation" | "subgoal", "text": str,
                "success": bool | null, "preconditions": [predicate], "effects": [predicate],
                "timestamp": number, "images": [URL | data: URI]}, ...],
     "success": bool,                                the episode's logged outcome
     "initial_state": [predicate], "goal": [predicate],
     "id", "problem_id", "generator", "source", "metadata", "images",
     "labels": [-1 | 0 | 1 | null, ...]}            (all but task and steps optional)

A predicate is a string such as ``holding(mug 1)`` or ``at(robot, counter)``; in `effects`
``not P`` removes P from the state, in `preconditions` it requires P to be false. The
`subgoal` checker (autolabel/engines/subgoal.py) replays them: the state starts as
`initial_state` and each step logged successful applies its effects.

The episode's `success` becomes the solution's `answer_correct` (the outcome the checker and
exports read); `initial_state` and `goal` go to the problem's metadata. A step's metadata is
{"kind", "success", "preconditions", "effects", "timestamp", "images"} (what the row gives);
frames (`images`) are checked and stored as steplab's are (labeling/importers/images.py).
"""

import math
from typing import Any

from .fields import Row, json_type
from .ids import problem_id
from .images import parse_images
from .trajectory import trajectory_solution
from .types import ParsedProblem, ParsedRow, ParsedStep

KINDS = ("plan", "action", "observation", "subgoal")
MAX_PREDICATES = 200
MAX_PREDICATE_CHARS = 300
STEP_KEYS = {"kind", "text", "success", "preconditions", "effects", "timestamp", "images"}


def _predicates(row: Row, data: dict[str, Any], key: str, at: str = "") -> list[str] | None:
    value = data.get(key)
    path = f"{at}.{key}" if at else key
    if value is None:
        return None
    if not isinstance(value, list):
        raise row.error(path, f"expected a list of predicate strings, got {json_type(value)}")
    if len(value) > MAX_PREDICATES:
        raise row.error(path, f"{len(value)} predicates; the limit is {MAX_PREDICATES}")
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise row.error(f"{path}[{i}]", f"expected a predicate string, got {json_type(item)}")
        text = " ".join(item.split())
        if not text or text.lower() == "not":
            raise row.error(f"{path}[{i}]", "is empty")
        if len(text) > MAX_PREDICATE_CHARS:
            raise row.error(
                f"{path}[{i}]",
                f"is {len(text)} characters long; the limit is {MAX_PREDICATE_CHARS}",
            )
        out.append(text)
    return out


def _step(row: Row, item: Any, i: int, media: dict[str, bytes]) -> ParsedStep:
    at = f"steps[{i}]"
    if not isinstance(item, dict):
        raise row.error(at, f"expected an object with kind and text, got {json_type(item)}")
    unknown = sorted(set(item) - STEP_KEYS)
    if unknown:
        raise row.error(
            f"{at}.{unknown[0]}", f"unknown key; a step has {', '.join(sorted(STEP_KEYS))}"
        )
    kind = item.get("kind")
    if kind not in KINDS:
        raise row.error(f"{at}.kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
    text = row.string(item, "text", at).strip()
    if not text:
        raise row.error(f"{at}.text", "is empty")
    metadata: dict[str, Any] = {"kind": kind}
    success = row.boolean(item, "success", at, optional=True)
    if success is not None:
        metadata["success"] = success
    for key in ("preconditions", "effects"):
        if (predicates := _predicates(row, item, key, at)) is not None:
            metadata[key] = predicates
    timestamp = item.get("timestamp")
    if timestamp is not None:
        if (
            isinstance(timestamp, bool)
            or not isinstance(timestamp, int | float)
            or not math.isfinite(timestamp)
        ):
            raise row.error(
                f"{at}.timestamp", f"expected seconds (a number), got {json_type(timestamp)}"
            )
        metadata["timestamp"] = timestamp
    if images := parse_images(row, item, at, media):
        metadata["images"] = images
    return ParsedStep(text=text, metadata=metadata)


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    task = row.string(data, "task").strip()
    if not task:
        raise row.error("task", "is empty")
    media: dict[str, bytes] = {}
    items = row.array(data, "steps")
    if not items:
        raise row.error("steps", "an episode needs at least one step")
    steps = [_step(row, item, i, media) for i, item in enumerate(items)]
    problem_metadata: dict[str, Any] = {}
    for key in ("initial_state", "goal"):
        if (predicates := _predicates(row, data, key)) is not None:
            problem_metadata[key] = predicates
    if images := parse_images(row, data, "", media):
        problem_metadata["images"] = images
    solution, pid, source = trajectory_solution(
        row,
        data,
        fmt="embodied",
        steps=steps,
        content=lambda generator: (task, generator, [[s.text, s.metadata] for s in steps]),
        correct_key="success",
    )
    problem = ParsedProblem(
        text=task,
        external_id=pid or problem_id(task),
        source=source,
        metadata=problem_metadata,
    )
    return ParsedRow(line=row.line, problem=problem, solutions=[solution], media=media)
