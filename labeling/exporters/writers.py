"""Data files with deterministic bytes: the same rows always give the same file.

- JSON Lines: keys in the order the format builds them, `ensure_ascii=False`, compact
  separators, one row a line. gzip with mtime 0, no file name and level 6 in the header.
- Parquet (pyarrow): the format's fixed schema, row groups of exactly ROW_GROUP rows
  (independent of how the rows were read), zstd, statistics on. The footer names the
  pyarrow version that wrote it, so equal bytes need the same pyarrow.

The sha256 and size are of the file as stored.
"""

import gzip
import hashlib
import json
import json.encoder
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

ROW_GROUP = 10_000
BUFFER_BYTES = 1 << 20


class _HashingFile:
    """A binary file that hashes and counts what is written through it."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.sha256 = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes) -> int:
        self.sha256.update(data)
        self.size += len(data)
        return self.raw.write(data)

    def flush(self) -> None:
        self.raw.flush()


def _line_encoder() -> Callable[[Any], str]:
    """One row as its JSON line (no newline): the stdlib encoder with ensure_ascii=False,
    compact separators and allow_nan=False. Its C encoder is made once and called directly:
    `JSONEncoder.encode` makes it again for every row, about a third of the time a row of
    an export takes to encode (bench/export_bench.py). The same text either way (tested)."""
    options = {"ensure_ascii": False, "separators": (",", ":"), "allow_nan": False}
    encoder = json.JSONEncoder(**options)
    make = json.encoder.c_make_encoder
    if make is None:  # no C accelerator: the plain encoder
        return encoder.encode
    encode = make(
        None,  # no circular check: rows are trees the formats build
        encoder.default,
        json.encoder.c_encode_basestring,
        None,
        encoder.key_separator,
        encoder.item_separator,
        False,  # sort_keys: the format's order
        False,  # skipkeys
        False,  # allow_nan
    )
    join = "".join

    def dumps(row: Any) -> str:
        return join(encode(row, 0))

    return dumps


class JsonlWriter:
    def __init__(self, path: Path, *, compress: bool) -> None:
        self._raw = open(path, "wb")  # noqa: SIM115 - closed in close()
        self._hashing = _HashingFile(self._raw)
        self._gzip = (
            gzip.GzipFile(filename="", mode="wb", fileobj=self._hashing, compresslevel=6, mtime=0)
            if compress
            else None
        )
        self._out: Any = self._gzip or self._hashing
        self._buffer: list[str] = []
        self._buffered = 0
        self._dumps = _line_encoder()

    def write(self, rows: list[dict[str, Any]]) -> None:
        dumps, buffer = self._dumps, self._buffer
        for row in rows:
            line = dumps(row)
            buffer.append(line)
            self._buffered += len(line)
        if self._buffered >= BUFFER_BYTES:
            self._flush()

    def _flush(self) -> None:
        if self._buffer:
            self._buffer.append("")  # the last line's newline, without copying the text again
            self._out.write("\n".join(self._buffer).encode())
            self._buffer, self._buffered = [], 0

    def close(self) -> tuple[str, int]:
        try:
            self._flush()
            if self._gzip:
                self._gzip.close()
        finally:  # a failed write (a full disk) still lets go of the file
            self._raw.close()
        return self._hashing.sha256.hexdigest(), self._hashing.size


class ParquetWriter:
    def __init__(self, path: Path, *, schema: "pa.Schema", row_group: int = ROW_GROUP) -> None:
        import pyarrow.parquet as pq

        self._path = path
        self._schema = schema
        self._row_group = row_group
        self._rows: list[dict[str, Any]] = []
        self._writer = pq.ParquetWriter(
            str(path),
            schema,
            compression="zstd",
            compression_level=3,
            use_dictionary=True,
            write_statistics=True,
            version="2.6",
        )

    def write(self, rows: list[dict[str, Any]]) -> None:
        self._rows.extend(rows)
        while len(self._rows) >= self._row_group:
            self._write_group(self._rows[: self._row_group])
            del self._rows[: self._row_group]

    def _write_group(self, rows: list[dict[str, Any]]) -> None:
        import pyarrow as pa

        table = pa.Table.from_pylist(rows, schema=self._schema)
        self._writer.write_table(table, row_group_size=len(rows))

    def close(self) -> tuple[str, int]:
        if self._rows:
            self._write_group(self._rows)
            self._rows = []
        self._writer.close()
        digest, size = hashlib.sha256(), 0
        with open(self._path, "rb") as f:
            while chunk := f.read(BUFFER_BYTES):
                digest.update(chunk)
                size += len(chunk)
        return digest.hexdigest(), size


def open_writer(path: Path, *, file_type: str, schema: "pa.Schema | None" = None):
    if file_type == "parquet":
        assert schema is not None
        return ParquetWriter(path, schema=schema)
    return JsonlWriter(path, compress=file_type == "jsonl.gz")
