"""The export files' bytes, pinned: every format, file type and label path of a fixed data
set hashed against the sha256 stored in golden_sha256.json. A change that moves one byte of
one row fails here (speed work on the formatting must keep the files as they are).

After a change meant to alter the bytes, regenerate the file and say why in the commit:

```sh norun
GOLDEN_WRITE=1 .venv/bin/pytest -p no:cacheprovider -q -n 0 tests/exports/test_golden_bytes.py
```
"""

import hashlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from labeling.models import Annotation, Solution, Suggestion
from tests.exports.conftest import annotate, file_bytes

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).with_name("golden_sha256.json")
AT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)

SOFT = {"soft_labels": True, "label_sources": True}
# name: (format, file type, filters, label policy)
CASES: dict[str, tuple[str, str, dict[str, Any], dict[str, Any] | None]] = {
    "trl-imported": ("trl", "jsonl", {"label_source": "imported"}, None),
    "trl-imported-soft": ("trl", "jsonl", {"label_source": "imported"}, SOFT),
    "trl-imported-gz": ("trl", "jsonl.gz", {"label_source": "imported"}, SOFT),
    "trl-imported-parquet": ("trl", "parquet", {"label_source": "imported"}, SOFT),
    "trl-final": ("trl", "jsonl", {}, SOFT),
    "trl-final-machine": ("trl", "jsonl", {"machine_labels": True}, SOFT),
    "trl-annotations": ("trl", "jsonl", {"label_source": "annotations"}, SOFT),
    "trl-per-annotation": (
        "trl",
        "jsonl",
        {"label_source": "annotations"},
        {**SOFT, "combine": "per_annotation"},
    ),
    "trl-neutral-positive": (
        "trl",
        "jsonl",
        {"label_source": "imported"},
        {"neutral": "positive", "truncate_after_first_error": False},
    ),
    "trl-unsure-truncate": (
        "trl",
        "jsonl",
        {"label_source": "annotations", "unsure": "truncate"},
        None,
    ),
    "trl-unsure-drop": ("trl", "jsonl", {"label_source": "annotations", "unsure": "drop"}, None),
    "trl-uses-keep": ("trl", "jsonl", {"label_source": "imported"}, {"dependency_policy": "keep"}),
    "trl-uses-inherit": (
        "trl",
        "jsonl",
        {"label_source": "imported"},
        {"dependency_policy": "inherit", "truncate_after_first_error": False},
    ),
    "trl-auto-any": ("trl", "jsonl", {"label_source": "auto_any"}, SOFT),
    "prm800k-imported": ("prm800k", "jsonl", {"label_source": "imported"}, None),
    "pairwise-imported": ("pairwise", "jsonl", {"label_source": "imported"}, None),
    "openrlhf-imported": ("openrlhf", "jsonl", {"label_source": "imported"}, None),
    "dense-rewards-imported": ("dense_rewards", "jsonl", {"label_source": "imported"}, None),
    "processbench-auto-any": ("processbench", "jsonl", {"label_source": "auto_any"}, None),
    "math-shepherd-auto-any": ("math_shepherd", "jsonl", {"label_source": "auto_any"}, None),
    "math-shepherd-imported": ("math_shepherd", "jsonl", {"label_source": "imported"}, None),
}


@pytest.fixture
def data(load, annotator):
    """Imported labels (PRM800K, ProcessBench, PRMBench: LaTeX, quotes, non-ASCII text),
    machine suggestions (Math-Shepherd), and human annotations beside some imported ones
    (majority votes, ties, unsure steps) at a fixed time."""
    load("prm800k_sample.jsonl", fmt="prm800k")
    load("processbench_sample.jsonl", fmt="processbench")
    load("prmbench_sample.jsonl")
    load("math_shepherd_sample.jsonl", fmt="math_shepherd", labels_as="suggestions")
    # Times the formats write (a record's labeled_at) are the import's: fixed here.
    Annotation.objects.update(submitted_at=AT)
    Suggestion.objects.update(updated_at=AT)
    solutions = list(Solution.objects.order_by("problem__text", "external_id")[:40:3])
    for n, solution in enumerate(solutions):
        count = solution.steps.count()
        ratings = [(1, -1, 0, None)[(n + k) % 4] for k in range(count)]
        annotate(solution, annotator, ratings, unsure=(n % 5,) if n % 2 else (), at=AT)


def test_every_case_keeps_its_bytes(data, build):
    got = {}
    for name, (fmt, file_type, filters, policy) in CASES.items():
        export = build(
            fmt,
            file_type=file_type,
            filters=filters,
            label_policy=policy,
            split_policy={"mode": "hash", "train": 0.8, "test": 0.2},
            chunk_size=17,
        )
        assert export.row_count > 0, name
        got[name] = hashlib.sha256(file_bytes(export)).hexdigest()
    if os.environ.get("GOLDEN_WRITE"):
        GOLDEN.write_text(json.dumps(got, indent=2, sort_keys=True) + "\n")
    golden = json.loads(GOLDEN.read_text())
    assert sorted(got) == sorted(golden)
    changed = sorted(name for name in got if got[name] != golden[name])
    assert changed == []
