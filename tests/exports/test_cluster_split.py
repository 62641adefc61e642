"""Splits by the near-duplicate cluster stored at import (Problem.near_cluster): a project of
any size keeps a cluster in one split (no cap on the number of problems)."""

import json
from collections import defaultdict

import pytest

from labeling.exporters import SplitPolicy, split_of
from labeling.models import Problem
from labeling.services.imports import import_file
from tests.exports.conftest import file_bytes
from tests.importers.test_near_keys import _reword, _text, _write

pytestmark = pytest.mark.django_db


def test_the_export_split_keeps_clusters_together_in_a_large_project(
    tmp_path, monkeypatch, build, project
):
    from labeling.services.exports import writing as exports

    monkeypatch.setattr(exports, "SMALL", 0)  # no split plan: a project past SMALL problems
    rows = []
    for i in range(30):
        rows += [(f"p{i}", _text(i + 100)), (f"p{i}-copy", _reword(_text(i + 100)))]
    path = _write(tmp_path / "pairs.jsonl", rows)
    import_file(project=project, path=path, fmt="steplab", labels_as="annotations")
    named = dict(Problem.objects.filter(project=project).values_list("external_id", "near_cluster"))
    assert all(named[f"p{i}"] == named[f"p{i}-copy"] != "" for i in range(30))
    export = build("trl", split_policy={"train": 0.5, "validation": 0.0, "test": 0.5})
    split_by = defaultdict(set)
    for line in file_bytes(export).decode().splitlines():
        row = json.loads(line)
        split_by[" ".join(row["prompt"].lower().split())].add(row["split"])
    assert len(split_by) == 30 and all(len(s) == 1 for s in split_by.values())
    assert {s for (s,) in split_by.values()} == {"train", "test"}
    # Split by each problem's own key, many pairs would cross train and test.
    policy = SplitPolicy(train=0.5, validation=0.0, test=0.5)
    assert sum(split_of(f"p{i}", policy) != split_of(f"p{i}-copy", policy) for i in range(30)) > 5
