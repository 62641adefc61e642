"""An export's data file as an Arrow table, and that table cut into its splits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from labeling.models import Export

from .connection import HubError

if TYPE_CHECKING:
    import pyarrow as pa

SPLIT_COLUMN = "split"


def export_table(export: Export) -> pa.Table:
    """The rows of the export's file (JSON Lines, gzipped or not, or Parquet)."""
    import pyarrow as pa
    import pyarrow.json as pj
    import pyarrow.parquet as pq

    with export.file.open("rb") as raw:
        try:
            if export.file_type == "parquet":
                return pq.read_table(raw)
            compression = "gzip" if export.file_type == "jsonl.gz" else None
            stream = pa.CompressedInputStream(raw, "gzip") if compression else raw
            return pj.read_json(stream, read_options=pj.ReadOptions(block_size=1 << 24))
        except (pa.ArrowInvalid, OSError) as exc:
            raise HubError(
                f"Export {export.pk}'s file could not be read as a table: {exc}"
            ) from None


def split_tables(table: pa.Table) -> dict[str, pa.Table]:
    """{split: rows}, in train, validation, test order; a table without a split column is
    all train. The split column itself is dropped: the split is the file."""
    import pyarrow.compute as pc

    if SPLIT_COLUMN not in table.column_names:
        return {"train": table}
    names = [n for n in pc.unique(table[SPLIT_COLUMN]).to_pylist() if n]
    order = {"train": 0, "validation": 1, "test": 2}
    names.sort(key=lambda n: (order.get(n, 3), n))
    rest = table.drop_columns([SPLIT_COLUMN])
    return {n: rest.filter(pc.equal(table[SPLIT_COLUMN], n)) for n in names}
