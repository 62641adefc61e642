"""A many-domains project's exports: every TRL row carries its problem's domain, and the
`domains` filter keeps only some, so a math-only training set is the same export filtered
(same rows, same split); training reads the column (training.data, training.domains)."""

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from labeling.errors import ValidationFailed
from labeling.services.exports.snapshots import export_create
from labeling.services.imports import import_file
from tests.factories import ProjectFactory
from training.data import read_rows as training_rows
from training.domains import only_domains

from .conftest import file_bytes, read_rows

pytestmark = pytest.mark.django_db
DEMO = Path(__file__).resolve().parents[2] / "labeling" / "demo"


@pytest.fixture
def mixed(db):
    project = ProjectFactory(domain="mixed", name="Mixed export")
    import_file(project=project, path=DEMO / "processbench_demo.jsonl", domain="math")
    # The PRM800K rows as a second domain's labeled rows (only the domain tag matters here).
    import_file(project=project, path=DEMO / "prm800k_demo.jsonl", domain="text")
    return project


def _build(build, project, **filters):
    return build(
        "trl",
        project=project,
        filters={"label_source": "auto_any", **filters},
        split_policy={"mode": "hash", "train": 0.5, "validation": 0.5, "test": 0.0},
    )


def test_rows_carry_the_domain_and_the_filter_keeps_one(build, mixed, tmp_path):
    everything = read_rows(_build(build, mixed))
    assert {r["domain"] for r in everything} == {"math", "text"}
    assert sum(r["domain"] == "math" for r in everything) == 12
    only_math = _build(build, mixed, domains=["math"])
    assert only_math.stats["domains"] == {"math": 12}
    math_rows = read_rows(only_math)
    # The same rows and splits as the full export's math rows: one export, filtered.
    assert math_rows == [r for r in everything if r["domain"] == "math"]
    # training reads the column and filters the same way.
    path = tmp_path / "all.jsonl"
    path.write_bytes(file_bytes(_build(build, mixed)))
    trained_on = only_domains(list(training_rows(path)), ["math"])
    assert [(r.prompt, r.split, r.domain) for r in trained_on] == [
        (r["prompt"], r["split"], "math") for r in math_rows
    ]


def test_a_project_of_one_domain_keeps_its_columns(build, project, load):
    load("processbench_sample.jsonl", labels_as="suggestions")
    rows = read_rows(build("trl", filters={"label_source": "auto_any"}))
    assert rows and "domain" not in rows[0]
    # Its own domain as a filter keeps everything; another keeps nothing.
    kept = build("trl", filters={"label_source": "auto_any", "domains": ["math"]})
    assert kept.stats["rows"] == len(rows)
    assert (
        build("trl", filters={"label_source": "auto_any", "domains": ["text"]}).stats["rows"] == 0
    )


def test_parquet_has_the_domain_column(build, mixed):
    rows = read_rows(
        build(
            "trl",
            project=mixed,
            file_type="parquet",
            filters={"label_source": "auto_any", "domains": ["text"]},
        )
    )
    assert rows and {r["domain"] for r in rows} == {"text"}


def test_an_unknown_domain_is_refused(mixed):
    with pytest.raises(ValidationFailed) as caught:
        export_create(project=mixed, created_by=None, format="trl", filters={"domains": ["poetry"]})
    assert caught.value.details["field"] == "filters.domains"


def test_the_cli_takes_domain_filters(mixed, tmp_path):
    out = io.StringIO()
    call_command(
        "export",
        "--project",
        mixed.name,
        "--format",
        "trl",
        "--label-source",
        "auto_any",
        "--domain",
        "text",
        "--output",
        str(tmp_path),
        "--no-progress",
        stdout=out,
    )
    [written] = [p for p in tmp_path.iterdir() if p.suffix == ".jsonl"]
    domains = {r.domain for r in training_rows(written)}
    assert domains == {"text"}


def test_a_project_that_became_many_domains_exports_its_blank_problems_as_the_old_domain(build):
    from labeling.services.projects.edit import project_update

    project = ProjectFactory(domain="math", name="Became mixed")
    import_file(project=project, path=DEMO / "processbench_demo.jsonl")
    project_update(project=project, domain="mixed")  # writes no problem: they stay blank
    assert not project.problems.exclude(domain="").exists()
    import_file(project=project, path=DEMO / "prm800k_demo.jsonl", domain="text")
    everything = read_rows(_build(build, project))
    assert {r["domain"] for r in everything} == {"math", "text"}
    only_math = _build(build, project, domains=["math"])
    assert only_math.stats["domains"] == {"math": 12}
    assert read_rows(only_math) == [r for r in everything if r["domain"] == "math"]
