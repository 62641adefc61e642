"""Exporting labeled steps as training sets: options, label resolution, formats, writers.

    options = options_from(filters=..., label_policy=..., split_policy=...)
    records = solution_records(project=..., options=options)   # source.py: the DB reads
    fmt = FORMATS["trl"](options, stats)                        # records -> rows
    writer = open_writer(path, file_type="jsonl", schema=fmt.schema())

labeling.services.exports.snapshots.export_build puts these together for an Export row.
"""

from .card import CardInfo, licences_of, render_card
from .formats import FORMATS, Format, Stats
from .options import (
    Combine,
    DependencyPolicy,
    ExportOptions,
    Filters,
    LabelPolicy,
    LabelSource,
    Neutral,
    SplitMode,
    SplitPolicy,
    Unsure,
    options_from,
)
from .split import split_of
from .writers import open_writer

FILE_TYPES = ("jsonl", "jsonl.gz", "parquet")
EXTENSIONS = {"jsonl": ".jsonl", "jsonl.gz": ".jsonl.gz", "parquet": ".parquet"}

__all__ = [
    "EXTENSIONS",
    "FILE_TYPES",
    "FORMATS",
    "CardInfo",
    "Combine",
    "DependencyPolicy",
    "ExportOptions",
    "Filters",
    "Format",
    "LabelPolicy",
    "LabelSource",
    "Neutral",
    "SplitMode",
    "SplitPolicy",
    "Stats",
    "Unsure",
    "licences_of",
    "open_writer",
    "options_from",
    "render_card",
    "split_of",
]
