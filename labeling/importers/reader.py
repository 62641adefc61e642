"""Streaming JSON Lines: one line in memory at a time, gzip sniffed, size and depth capped."""

import gzip
import io
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

from labeling.importers.jsonwalk import any_string

from .errors import ImportFileError
from .fields import json_type

MAX_LINE_BYTES = 10 * 1024 * 1024
MAX_DEPTH = 64
# A file's bounds after decompression (settings IMPORT_MAX_DECOMPRESSED_BYTES, IMPORT_MAX_LINES,
# IMPORT_MAX_GZIP_RATIO): a 1 MB gzip of short lines expands to gigabytes and held a worker for
# 11 minutes (issue 24). The ratio is judged once RATIO_AFTER bytes are out: JSON Lines
# compress 5 to 20 times; a bomb, about a thousand.
DEFAULT_MAX_BYTES = 8 * 1024**3
DEFAULT_MAX_LINES = 20_000_000
DEFAULT_MAX_RATIO = 100
RATIO_AFTER = 32 * 1024 * 1024


def _limits() -> tuple[int, int, int]:
    try:
        from django.conf import settings

        return (
            getattr(settings, "IMPORT_MAX_DECOMPRESSED_BYTES", DEFAULT_MAX_BYTES),
            getattr(settings, "IMPORT_MAX_LINES", DEFAULT_MAX_LINES),
            getattr(settings, "IMPORT_MAX_GZIP_RATIO", DEFAULT_MAX_RATIO),
        )
    except ImportError:  # pragma: no cover - the importers run without Django in scripts
        return DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, DEFAULT_MAX_RATIO


GZIP_MAGIC = b"\x1f\x8b"

Source = str | os.PathLike[str] | IO[bytes]


@dataclass(slots=True)
class JsonLine:
    number: int  # 1-based line number in the (decompressed) file
    data: dict[str, Any]


class _NotFinite(Exception):
    """NaN, Infinity or a float too large for a double: Python reads them, JSON has none."""


def _no_constant(name: str) -> float:
    raise _NotFinite(name)


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _NotFinite(text)
    return value


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite_float)


def _too_deep(value: object, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def _has_nul(value: object) -> bool:
    return any_string(value, lambda text: "\x00" in text)


class JsonLinesReader:
    """Iterates the JSON objects of a binary stream; `bytes_done` is the position in the
    underlying (possibly compressed) file, for progress against its size."""

    def __init__(self, raw: IO[bytes], *, filename: str) -> None:
        self.filename = filename
        self._raw = raw
        head = raw.peek(2)[:2] if hasattr(raw, "peek") else _read_head(raw)
        self.compressed = head == GZIP_MAGIC
        self._stream: IO[bytes] = gzip.GzipFile(fileobj=raw) if self.compressed else raw
        self._plain_bytes = 0
        self.lines = 0  # lines read, blank ones included
        self.max_bytes, self.max_lines, self.max_ratio = _limits()

    @property
    def bytes_done(self) -> int:
        return self._raw.tell() if self.compressed else self._plain_bytes

    def _error(self, message: str, field: str | None = None) -> ImportFileError:
        return ImportFileError(file=self.filename, line=self.lines, field=field, message=message)

    def __iter__(self) -> Iterator[JsonLine]:
        readline = self._stream.readline
        while True:
            try:
                line = readline(MAX_LINE_BYTES + 1)
            except (OSError, EOFError) as exc:  # a corrupt or truncated gzip stream
                raise self._error(f"cannot read the file: {exc}") from exc
            if not line:
                return
            self.lines += 1
            self._plain_bytes += len(line)
            if self.lines > self.max_lines:
                raise self._error(
                    f"the file has more than {self.max_lines} lines (IMPORT_MAX_LINES); "
                    "split it into smaller files"
                )
            if self.compressed and self._plain_bytes > RATIO_AFTER and self.lines % 1024 == 0:
                ratio = self._plain_bytes / max(self._raw.tell(), 1)
                if ratio > self.max_ratio:
                    raise self._error(
                        f"the gzip expands more than {self.max_ratio} times "
                        "(IMPORT_MAX_GZIP_RATIO): refused as a decompression bomb"
                    )
            if self._plain_bytes > self.max_bytes:
                raise self._error(
                    f"the file is larger than {self.max_bytes} bytes"
                    f"{' once decompressed' if self.compressed else ''} "
                    "(IMPORT_MAX_DECOMPRESSED_BYTES); "
                    "split it into smaller files"
                )
            if len(line.rstrip(b"\r\n")) > MAX_LINE_BYTES:
                raise self._error(f"line is longer than {MAX_LINE_BYTES} bytes")
            if self.lines == 1 and line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            if not line.strip():
                continue
            try:
                data = self._decode(line)
            except ImportFileError as exc:
                first = self.lines == 1
                kind = _not_json_lines(line, self.filename, exc.message) if first else None
                if kind is None:
                    raise
                raise self._error(
                    f"this is {kind}, not JSON Lines: upload one JSON object per line "
                    "(.jsonl, or .jsonl.gz)"
                ) from exc
            yield JsonLine(self.lines, data)

    def _decode(self, line: bytes) -> dict[str, Any]:
        try:
            # What json.loads(line, parse_constant=..., parse_float=...) does, without building
            # a decoder for every line.
            data = _DECODER.decode(line.decode(json.detect_encoding(line), "surrogatepass"))
        except _NotFinite as exc:
            raise self._error(
                f"{exc} is not a JSON number (NaN and infinities cannot be stored)"
            ) from exc
        except json.JSONDecodeError as exc:
            # json's "Unterminated string starting at" names its column after it: one "at".
            what = exc.msg.removesuffix(" at")
            raise self._error(f"invalid JSON: {what} at column {exc.colno}") from exc
        except UnicodeDecodeError as exc:
            raise self._error(f"not valid UTF-8: {exc.reason} at byte {exc.start}") from exc
        except RecursionError as exc:
            raise self._error(f"JSON is nested deeper than {MAX_DEPTH} levels") from exc
        if not isinstance(data, dict):
            raise self._error(f"expected a JSON object, got {json_type(data)}")
        if b"\\u0000" in line and _has_nul(data):  # PostgreSQL text and jsonb cannot hold NUL
            raise self._error("contains a NUL character (\\u0000), which cannot be stored")
        # Every level of nesting needs a bracket; only rows with many brackets get walked.
        if line.count(b"{") + line.count(b"[") > MAX_DEPTH and _too_deep(data, MAX_DEPTH):
            raise self._error(f"JSON is nested deeper than {MAX_DEPTH} levels")
        return data


def _not_json_lines(first_line: bytes, filename: str, error: str) -> str | None:
    """What a file whose first line is not a JSON object (`error`) looks like, if it is a kind
    people upload by mistake (the import reads JSON Lines only; the Hub import reads Parquet
    and JSON): said instead of "invalid JSON: Expecting value at column 1"."""
    if not error.startswith(("invalid JSON", "expected a JSON object", "not valid UTF-8")):
        return None  # too deep, NaN, NUL...: the row's own problem
    head, name = first_line.strip(), filename.lower()
    if head.startswith(b"PAR1") or name.endswith(".parquet"):
        return "a Parquet file"
    if head.startswith(b"PK\x03\x04") or name.endswith(".zip"):
        return "a ZIP archive"
    if head.startswith(b"[") and (error.startswith("invalid JSON") or _rows_array(head)):
        return "a JSON array (`jq -c '.[]' file.json > file.jsonl` makes JSON Lines of it)"
    if head == b"{":
        return "one JSON document over several lines"
    if name.endswith((".csv", ".tsv")):
        return "a CSV file"
    return None


def _rows_array(line: bytes) -> bool:
    """A JSON array of objects on one line (a whole .json file of rows)."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return bool(value) and all(isinstance(v, dict) for v in value)


def _read_head(raw: IO[bytes]) -> bytes:
    head = raw.read(2)
    raw.seek(0)
    return head


@contextmanager
def open_source(source: Source) -> Iterator[IO[bytes]]:
    """A binary stream over a path or an already open binary file (left open)."""
    if isinstance(source, str | os.PathLike):
        with open(source, "rb") as raw:
            yield raw
        return
    if hasattr(source, "seek"):
        source.seek(0)
    yield source if hasattr(source, "peek") else io.BufferedReader(_Readable(source))


class _Readable(io.RawIOBase):
    """Lets io.BufferedReader wrap a file object that only has read() (e.g. Django File)."""

    def __init__(self, inner: IO[bytes]) -> None:
        self._inner = inner
        self._pos = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._inner.read(len(buffer))
        buffer[: len(data)] = data
        self._pos += len(data)
        return len(data)

    def tell(self) -> int:
        return self._pos
