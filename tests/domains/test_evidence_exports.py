"""Evidence-cited projects: the labeling and review payloads carry the sources and citations,
and exports keep them (TRL and ProcessBench, JSONL and Parquet)."""

import gzip
import json
from pathlib import Path

import pytest
from django.core.files.storage import default_storage

from labeling.models import Step
from labeling.selectors.review import review_detail
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.imports import import_file
from tests.factories import AnnotationFactory, ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db

DEMO = Path(__file__).resolve().parents[2] / "labeling" / "demo" / "evidence_demo.jsonl"


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


def _rows(export) -> list[dict]:
    with default_storage.open(export.file.name, "rb") as f:
        if export.file.name.endswith(".parquet"):
            import pyarrow.parquet as pq

            return pq.read_table(f).to_pylist()
        data = f.read()
        if export.file.name.endswith(".gz"):
            data = gzip.decompress(data)
        return [json.loads(line) for line in data.splitlines()]


def _strip_nulls(value):
    """Parquet structs have every field; a JSON citation only its own."""
    if isinstance(value, dict):
        return {k: _strip_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_strip_nulls(v) for v in value]
    return value


@pytest.mark.parametrize("file_type", ["jsonl", "parquet"])
@pytest.mark.parametrize("fmt", ["trl", "processbench"])
def test_exports_keep_each_steps_citations_and_the_sources(fmt, file_type):
    project = ProjectFactory(domain="evidence")
    import_file(project=project, path=DEMO, labels_as="annotations")
    source = [json.loads(line) for line in DEMO.read_text().splitlines()]
    export = export_build(
        export=export_create(
            project=project, created_by=UserFactory(), format=fmt, file_type=file_type
        )
    )
    assert export.status == "done", export.error
    rows = _rows(export)
    assert len(rows) == len(source)
    by_problem = {r["prompt" if fmt == "trl" else "problem"]: r for r in rows}
    for original in source:
        row = by_problem[original["problem"]]
        cited = [
            step.metadata.get("citations", [])
            for step in Step.objects.filter(solution__external_id=original["id"]).order_by("index")
        ]
        # TRL rows stop after the first wrong step; ProcessBench rows have every step.
        written = len(row["completions"] if fmt == "trl" else row["steps"])
        assert written >= 2
        assert _strip_nulls(row["citations"]) == cited[:written]
        assert row["documents"] == original["documents"]
        tables = _strip_nulls(row["tables"])
        assert [t["columns"] for t in tables] == [t["columns"] for t in original["tables"]]
        assert [t["rows"] for t in tables] == [t["rows"] for t in original["tables"]]


def test_other_domains_exports_have_no_evidence_columns(tmp_path):
    project = ProjectFactory(domain="text")
    path = tmp_path / "plain.jsonl"
    path.write_text(json.dumps({"problem": "p", "steps": ["a"], "labels": [1]}) + "\n")
    import_file(project=project, path=path, labels_as="annotations")
    export = export_build(
        export=export_create(project=project, created_by=UserFactory(), format="trl")
    )
    (row,) = _rows(export)
    assert not {"citations", "documents", "tables"} & set(row)


def test_the_labeling_and_review_payloads_carry_sources_and_citations():
    from labeling.selectors.labeling_page import task_payload

    project = ProjectFactory(domain="evidence")
    import_file(project=project, path=DEMO, labels_as="none")
    step = Step.objects.get(solution__external_id="evidence-demo-med-1", index=0)
    annotation = AnnotationFactory(solution=step.solution)
    task = task_payload(annotation=annotation, lock_expires_at=None)
    assert task["problem"]["documents"][0]["id"] == "abstract"
    assert task["problem"]["tables"][0]["id"] == "outcomes"
    assert task["solution"]["steps"][0]["meta"]["citations"] == step.metadata["citations"]
    detail = review_detail(solution=step.solution)
    assert detail["problem"]["tables"][0]["columns"][0] == "Outcome"
    assert detail["steps"][1]["meta"]["citations"][0]["table"] == "outcomes"
