"""What the trajectory formats (messages, embodied, ALFWorld) read alike around their steps: the
per-step `labels`, the row's `metadata`, `id`, `problem_id`, `generator` and `source`, and the
one solution each row holds."""

from collections.abc import Callable, Sequence
from typing import Any

from .fields import Row
from .ids import content_id
from .types import ParsedSolution, ParsedStep


def trajectory_solution(
    row: Row,
    data: dict[str, Any],
    *,
    fmt: str,
    steps: list[ParsedStep],
    content: Callable[[str], Sequence[Any]],
    correct_key: str | None = None,
) -> tuple[ParsedSolution, str, str]:
    """The row's solution, its problem's external id (empty: derive it from the text) and its
    source. `content(generator)`: what the solution's id is derived from when the row gives
    none (after `fmt`); `correct_key`: the field that says whether the episode succeeded."""
    labels = row.array(data, "labels") if data.get("labels") is not None else []
    if len(labels) > len(steps):
        raise row.error("labels", f"{len(labels)} labels for {len(steps)} steps")
    for i, value in enumerate(labels):
        steps[i].label = row.rating(value, f"labels[{i}]")
    metadata = data.get("metadata") or {}
    if not isinstance(metadata, dict):
        row.mapping(data, "metadata")
    sid, pid = row.identifier(data, "id"), row.identifier(data, "problem_id")
    generator = row.string(data, "generator", optional=True)
    source = row.string(data, "source", optional=True)
    solution = ParsedSolution(
        external_id=sid or content_id(fmt, *content(generator)),
        steps=steps,
        generator=generator,
        answer_correct=row.boolean(data, correct_key, optional=True) if correct_key else None,
        source=source,
        metadata=metadata,
        label_agent=source or fmt,
        label_annotator=source or fmt,
        finish_reason="solution" if labels else "",
    )
    return solution, pid, source
