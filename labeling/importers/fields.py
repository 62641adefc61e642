"""Typed access to a row's fields; every failure names the file, line and field path."""

from typing import Any

from .errors import ImportFileError
from .types import ParseOptions

_MISSING = object()


def json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


class Row:
    """The line being parsed: where it is, and getters that raise ImportFileError."""

    __slots__ = ("file", "line", "options")

    def __init__(self, *, file: str, line: int, options: ParseOptions) -> None:
        self.file = file
        self.line = line
        self.options = options

    def error(self, field: str | None, message: str) -> ImportFileError:
        return ImportFileError(file=self.file, line=self.line, field=field, message=message)

    def get(self, obj: dict[str, Any], key: str, at: str = "", *, default: Any = _MISSING) -> Any:
        value = obj.get(key, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                raise self.error(join(at, key), "missing field")
            return default
        return value

    def _typed(self, value: Any, path: str, kind: type, name: str) -> Any:
        # bool is a subclass of int in Python, not in JSON.
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise self.error(path, f"expected {name}, got {json_type(value)}")
        return value

    def string(self, obj: dict[str, Any], key: str, at: str = "", *, optional: bool = False) -> str:
        """A string field; `optional` accepts a missing key or null as ""."""
        value = self.get(obj, key, at, default=None if optional else _MISSING)
        if value is None and optional:
            return ""
        return self._typed(value, join(at, key), str, "a string")

    def identifier(self, obj: dict[str, Any], key: str) -> str:
        """An external id: a string or an integer, as a string ("" when missing or null)."""
        value = obj.get(key)
        if value is None:
            return ""
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise self.error(key, "expected a string or an integer")
        return str(value)

    def text(self, value: Any, path: str) -> str:
        return self._typed(value, path, str, "a string")

    def integer(self, obj: dict[str, Any], key: str, at: str = "") -> int:
        return self._typed(self.get(obj, key, at), join(at, key), int, "an integer")

    def boolean(
        self, obj: dict[str, Any], key: str, at: str = "", *, optional: bool = False
    ) -> bool | None:
        value = self.get(obj, key, at, default=None if optional else _MISSING)
        if value is None and optional:
            return None
        return self._typed(value, join(at, key), bool, "a bool")

    def mapping(self, obj: dict[str, Any], key: str, at: str = "") -> dict[str, Any]:
        return self._typed(self.get(obj, key, at), join(at, key), dict, "an object")

    def array(self, obj: dict[str, Any], key: str, at: str = "") -> list[Any]:
        return self._typed(self.get(obj, key, at), join(at, key), list, "a list")

    def strings(self, obj: dict[str, Any], key: str, at: str = "") -> list[str]:
        path = join(at, key)
        items = self.array(obj, key, at)
        for i, item in enumerate(items):
            self.text(item, f"{path}[{i}]")
        return items

    def rating(self, value: Any, path: str, *, nullable: bool = True) -> int | None:
        """A step label: −1, 0 or +1 (or null when `nullable`)."""
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value not in (-1, 0, 1):
            got = (
                json_type(value) if not isinstance(value, int) or isinstance(value, bool) else value
            )
            raise self.error(
                path, f"expected -1, 0 or 1{' or null' if nullable else ''}, got {got}"
            )
        return value
