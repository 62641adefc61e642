"""The `thinking` list of a row whose steps are a list (TRL's `completions`, ProcessBench's
`steps`), as steplab's exports write it: one bool per step, true for a step of the model's
reasoning trace (Step.thinking). Read back, an export's reasoning steps stay reasoning steps."""

from typing import Any

from .fields import Row, json_type


def thinking_flags(row: Row, data: dict[str, Any], count: int) -> list[bool]:
    """One bool per step (all false when the row has no `thinking`); ImportFileError naming
    `thinking` or `thinking[i]` for a list of another length or a value that is not a bool."""
    if data.get("thinking") is None:
        return [False] * count
    flags = row.array(data, "thinking")
    if len(flags) != count:
        raise row.error("thinking", f"{len(flags)} values for {count} steps")
    for i, value in enumerate(flags):
        if not isinstance(value, bool):
            raise row.error(f"thinking[{i}]", f"expected a bool, got {json_type(value)}")
    return flags
