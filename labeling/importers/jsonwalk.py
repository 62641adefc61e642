"""Walking parsed JSON without recursion (a body or a line may nest deep)."""

from collections.abc import Callable
from typing import Any


def any_string(value: Any, test: Callable[[str], bool]) -> bool:
    """Whether `test` holds for some string of `value`, an object's keys included."""
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if test(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False
