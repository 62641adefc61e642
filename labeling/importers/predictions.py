"""Machine step labels from a team's own model ("predictions"): the format, read and checked.

An upload names solutions already in a project by their external id (`id`, as the import
files give it); each line (JSON Lines) or array item (JSON) is

    {"id": "sol-17", "name": "my-prm", "version": "v3",
     "labels": [1, 1, -1, null], "scores": [0.97, 0.91, 0.08, 0.55]}

or, sparse, with the step indices (0-based) given:

    {"id": "sol-17", "name": "my-prm", "version": "v3",
     "steps": [{"index": 2, "value": -1, "score": 0.08}]}

A value is −1, 0, +1 or null; a score is a probability in [0, 1] (a null value needs one).
`labels` and `scores` are positional (shorter than the solution: the rest is unpredicted);
both given, they have the same length. `name` is a short slug, `version` a short string; a
line may leave them out when the upload gives them for every line (the API's query string,
the command's options). An import row (steplab's JSON Lines) carries the same objects, without
`id`, in a list: `"predictions": [{"name", "version", "labels", "scores"}]`.

Pure Python, no database: the service (labeling.services.imports.predictions) checks the ids and
step counts against the project, and bench/label_quality.py --predictions reads files with it too.
"""

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

import ijson
from ijson.common import ObjectBuilder

from .errors import ImportFileError
from .fields import Row, json_type
from .limits import STEPS_MAX
from .reader import MAX_DEPTH, JsonLinesReader
from .types import ParsedPrediction, ParseOptions

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
VERSION_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,39}")
# Defaults of the bounds in settings (PREDICTIONS_MAX_STEPS, PREDICTIONS_MAX_PER_ROW).
DEFAULT_MAX_STEPS = STEPS_MAX  # step entries of one prediction: as many as a solution has
MAX_PER_ROW = 16  # predictions (sources) one import row may carry
KINDS = ("jsonl", "json")


@dataclass(slots=True)
class PredictionLine:
    """One line (or array item) of an upload."""

    line: int | None  # 1-based line of a JSON Lines file; None in a JSON array
    at: str  # the path of the item in the file ("" for a line, "[3]" for an array item)
    external_id: str
    prediction: ParsedPrediction


def _slug(row: Row, item: dict[str, Any], key: str, at: str, default: str, pattern) -> str:
    path = f"{at}.{key}" if at else key
    value = item.get(key)
    if value is None:
        if default:
            return default
        raise row.error(path, "missing field (or give it for the whole upload)")
    if not isinstance(value, str):
        raise row.error(path, f"expected a string, got {json_type(value)}")
    if not pattern.fullmatch(value):
        what = "64 letters, digits, '_', '.' or '-'" if key == "name" else "40 characters"
        raise row.error(
            path,
            f"{value[:80]!r} is not a valid {key}: up to {what}, starting with a letter or digit",
        )
    return value


def _value(row: Row, value: Any, path: str) -> int | None:
    return row.rating(value, path)


def _score(row: Row, value: Any, path: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise row.error(path, f"expected a probability between 0 and 1, got {json_type(value)}")
    if not 0 <= value <= 1:
        raise row.error(path, f"expected a probability between 0 and 1, got {value}")
    return float(value)


def _positional(
    row: Row, item: dict[str, Any], at: str, max_steps: int
) -> list[tuple[int, int | None, float | None]]:
    labels = row.array(item, "labels", at) if item.get("labels") is not None else None
    scores = row.array(item, "scores", at) if item.get("scores") is not None else None
    if labels is None and scores is None:
        raise row.error(at or None, "give `labels` (and/or `scores`) or `steps`")
    for key, given in (("labels", labels), ("scores", scores)):
        if given is not None and len(given) > max_steps:
            raise row.error(
                f"{at}.{key}" if at else key,
                f"{len(given)} entries; the limit is {max_steps} steps (PREDICTIONS_MAX_STEPS)",
            )
    if labels is not None and scores is not None and len(labels) != len(scores):
        raise row.error(
            f"{at}.scores" if at else "scores",
            f"{len(scores)} scores for {len(labels)} labels: give one per label",
        )
    prefix = f"{at}." if at else ""
    out = []
    for i in range(len(labels if labels is not None else scores)):
        value = _value(row, labels[i], f"{prefix}labels[{i}]") if labels is not None else None
        score = _score(row, scores[i], f"{prefix}scores[{i}]") if scores is not None else None
        if value is not None or score is not None:
            out.append((i, value, score))
    return out


def _sparse(
    row: Row, item: dict[str, Any], at: str, max_steps: int
) -> list[tuple[int, int | None, float | None]]:
    steps = row.array(item, "steps", at)
    path = f"{at}.steps" if at else "steps"
    if len(steps) > max_steps:
        raise row.error(
            path, f"{len(steps)} entries; the limit is {max_steps} (PREDICTIONS_MAX_STEPS)"
        )
    out: list[tuple[int, int | None, float | None]] = []
    seen: set[int] = set()
    for i, step in enumerate(steps):
        here = f"{path}[{i}]"
        if not isinstance(step, dict):
            raise row.error(here, f'expected {{"index", "value", "score"}}, got {json_type(step)}')
        index = row.integer(step, "index", here)
        if not 0 <= index < max_steps:
            raise row.error(f"{here}.index", f"{index} is not a step index (0 to {max_steps - 1})")
        if index in seen:
            raise row.error(f"{here}.index", f"step {index} is given twice")
        seen.add(index)
        value = _value(row, step.get("value"), f"{here}.value")
        score = _score(row, step.get("score"), f"{here}.score")
        if value is None and score is None:
            raise row.error(here, "a step needs a `value` or a `score`")
        out.append((index, value, score))
    return sorted(out)


def parse_prediction(
    row: Row,
    item: Any,
    at: str = "",
    *,
    name: str = "",
    version: str = "",
    max_steps: int = DEFAULT_MAX_STEPS,
) -> ParsedPrediction:
    """One prediction object (the line itself, or an import row's `predictions[i]`)."""
    if not isinstance(item, dict):
        raise row.error(at or None, f"expected an object, got {json_type(item)}")
    parsed = ParsedPrediction(
        name=_slug(row, item, "name", at, name, NAME_PATTERN),
        version=_slug(row, item, "version", at, version, VERSION_PATTERN),
    )
    if item.get("steps") is not None:
        if item.get("labels") is not None or item.get("scores") is not None:
            raise row.error(at or None, "give either `steps` or `labels`/`scores`, not both")
        parsed.steps = _sparse(row, item, at, max_steps)
        parsed.sparse = True
    else:
        parsed.steps = _positional(row, item, at, max_steps)
    return parsed


def row_predictions(row: Row, data: dict[str, Any], steps: int) -> list[ParsedPrediction]:
    """An import row's `predictions` (steplab's JSON Lines), checked against its step count."""
    if data.get("predictions") is None:
        return []
    items = row.array(data, "predictions")
    if len(items) > MAX_PER_ROW:
        raise row.error("predictions", f"{len(items)} predictions; the limit is {MAX_PER_ROW}")
    out: list[ParsedPrediction] = []
    agents: set[str] = set()
    for i, item in enumerate(items):
        at = f"predictions[{i}]"
        parsed = parse_prediction(row, item, at)
        if parsed.last_index >= steps:
            raise row.error(at, f"predicts step {parsed.last_index} of a {steps}-step solution")
        if parsed.agent in agents:
            raise row.error(at, f"{parsed.agent} is given twice")
        agents.add(parsed.agent)
        out.append(parsed)
    return out


def _line(
    row: Row, data: Any, at: str, *, name: str, version: str, max_steps: int
) -> PredictionLine:
    if not isinstance(data, dict):
        raise row.error(at or None, f"expected a JSON object, got {json_type(data)}")
    external_id = row.identifier(data, "id") if not at else _item_id(row, data, at)
    if not external_id:
        raise row.error(f"{at}.id" if at else "id", "missing field: the solution's external id")
    prediction = parse_prediction(row, data, at, name=name, version=version, max_steps=max_steps)
    return PredictionLine(row.line or None, at, external_id, prediction)


def _item_id(row: Row, data: dict[str, Any], at: str) -> str:
    value = data.get("id")
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise row.error(f"{at}.id", "expected a string or an integer")
    return str(value)


class PredictionsTooLarge(ImportFileError):
    """An upload over its byte bound: 413, nothing written."""

    code = "too_large"
    status = 413


class _Bounded(io.RawIOBase):
    """Reads through to `inner`, raising PredictionsTooLarge past `limit` bytes."""

    def __init__(self, inner: IO[bytes], limit: int, filename: str) -> None:
        self._inner = inner
        self._limit = limit
        self._filename = filename
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._inner.read(len(buffer))
        self.count += len(data)
        if self.count > self._limit:
            raise PredictionsTooLarge(
                file=self._filename,
                line=None,
                field=None,
                message=f"the upload is larger than {self._limit} bytes "
                "(PREDICTIONS_MAX_BYTES); split it into smaller files",
            )
        buffer[: len(data)] = data
        return len(data)


def read_predictions(
    raw: IO[bytes],
    *,
    filename: str,
    kind: str = "jsonl",
    name: str = "",
    version: str = "",
    max_lines: int,
    max_bytes: int,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> Iterator[PredictionLine]:
    """The lines of an upload, one in memory at a time: JSON Lines (gzip sniffed) line by
    line, or a JSON array streamed item by item (ijson). Raises ImportFileError naming the
    line (or item) and field; `max_lines` bounds the lines or items, `max_bytes` the bytes
    read (and a gzip's once decompressed)."""
    if kind not in KINDS:
        raise ImportFileError(
            file=filename, line=None, field="format", message=f"expected one of {', '.join(KINDS)}"
        )
    stream = io.BufferedReader(_Bounded(raw, max_bytes, filename), 64 * 1024)
    if kind == "jsonl":
        reader = JsonLinesReader(stream, filename=filename)
        reader.max_bytes = min(reader.max_bytes, max_bytes)
        for line in reader:
            row = Row(file=filename, line=line.number, options=ParseOptions())
            if line.number > max_lines:
                raise row.error(
                    None, f"more than {max_lines} lines (PREDICTIONS_MAX_LINES); split the file"
                )
            yield _line(row, line.data, "", name=name, version=version, max_steps=max_steps)
        return
    yield from _without_line(
        _json_items(
            stream,
            filename=filename,
            name=name,
            version=version,
            max_lines=max_lines,
            max_steps=max_steps,
        )
    )


def _json_items(
    stream: io.BufferedReader,
    *,
    filename: str,
    name: str,
    version: str,
    max_lines: int,
    max_steps: int,
) -> Iterator[PredictionLine]:
    row = Row(file=filename, line=0, options=ParseOptions())  # line 0: _without_line
    head = stream.peek(64 * 1024).lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"["):
        raise row.error(None, "expected a JSON array of predictions (or send JSON Lines)")
    count = 0
    items = _array_items(stream)
    while True:
        at = f"[{count}]"
        try:
            data = next(items)
        except StopIteration:
            return
        except ijson.JSONError as exc:
            message = (str(exc).strip() or "the JSON ends too early").splitlines()[0]
            raise row.error(at, f"invalid JSON at item {count}: {message}") from exc
        except (RecursionError, _TooDeep) as exc:
            raise row.error(at, f"JSON is nested deeper than {MAX_DEPTH} levels") from exc
        count += 1
        if count > max_lines:
            raise row.error(
                at, f"the array has more than {max_lines} items (PREDICTIONS_MAX_LINES)"
            )
        yield _line(row, data, at, name=name, version=version, max_steps=max_steps)


class _TooDeep(ValueError):
    pass


_OPEN = frozenset({"start_map", "start_array"})
_CLOSE = frozenset({"end_map", "end_array"})


def _array_items(stream: IO[bytes]) -> Iterator[Any]:
    """The items of a top-level JSON array, built one at a time from ijson's events with the
    nesting bounded while it is read (ijson.items would first build a deep item whole: a
    body nested 50,000 levels took gigabytes)."""
    depth = 0
    builder: ObjectBuilder | None = None
    for event, value in ijson.basic_parse(stream, use_float=True):
        if event in _OPEN:
            depth += 1
            if depth > MAX_DEPTH:
                raise _TooDeep
        elif event in _CLOSE:
            depth -= 1
        if depth == 0:
            continue  # the array's end: ijson raises on anything after it
        if builder is None:
            if depth == 1 and event not in _OPEN and event not in _CLOSE:
                yield value  # a scalar item
                continue
            if depth == 2 and event in _OPEN:
                builder = ObjectBuilder()
            else:
                continue
        builder.event(event, value)
        if depth == 1:  # the item closed
            yield builder.value
            builder = None


def _without_line(items: Iterator[PredictionLine]) -> Iterator[PredictionLine]:
    """A JSON array's errors name no line (the row says 0): its item's path says where."""
    try:
        yield from items
    except ImportFileError as exc:
        if exc.line != 0:
            raise
        raise ImportFileError(
            file=exc.file, line=None, field=exc.field, message=exc.message
        ) from None
