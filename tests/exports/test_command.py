"""`manage.py export` builds in-process and writes the file and its card."""

import gzip
import hashlib
import json

import pytest
from django.core.management import CommandError, call_command

from labeling.models import Export

pytestmark = pytest.mark.django_db


def test_export_command_writes_file_and_card(project, load, tmp_path, capsys):
    load("processbench_sample.jsonl", fmt="processbench")
    call_command(
        "export",
        "--project",
        project.name,
        "--format",
        "trl",
        "--file-type",
        "jsonl.gz",
        "--label-source",
        "imported",
        "--soft-labels",
        "--split",
        "0.8,0.1,0.1",
        "--output",
        str(tmp_path / "out"),
        "--no-progress",
    )
    export = Export.objects.get()
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert files == sorted(["README.md", export.file.name.rsplit("/", 1)[-1]])
    data = (tmp_path / "out" / files[0 if files[0] != "README.md" else 1]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == export.sha256
    rows = [json.loads(line) for line in gzip.decompress(data).splitlines()]
    assert len(rows) == export.row_count == 100 and "soft_labels" in rows[0]
    assert export.split_policy["train"] == 0.8 and export.label_policy["soft_labels"] is True
    assert export.sha256 in (tmp_path / "out" / "README.md").read_text()
    assert export.sha256 in capsys.readouterr().out


def test_export_command_refuses_bad_options(project, tmp_path):
    with pytest.raises(CommandError, match="min_agreement"):
        call_command(
            "export",
            "--project",
            project.name,
            "--format",
            "trl",
            "--min-agreement",
            "1.5",
            "--output",
            str(tmp_path),
        )
    with pytest.raises(CommandError, match="No project"):
        call_command("export", "--project", "nope", "--format", "trl", "--output", str(tmp_path))


def test_export_command_defaults_to_final_labels_and_takes_machine_labels(project, tmp_path):
    from tests.factories import SolutionFactory, SuggestionFactory

    solution = SolutionFactory(problem__project=project, steps=["x", "y"])
    for step in solution.steps.order_by("index"):
        SuggestionFactory(step=step, source="symbolic", agent="sympy", value=1)
    out = str(tmp_path / "out")
    call_command(
        "export", "--project", project.name, "--format", "trl", "--output", out, "--no-progress"
    )
    default = Export.objects.get()
    assert default.filters["label_source"] == "final" and default.row_count == 0
    assert default.stats["final_labels"]["solutions"]["no_label"] == 1  # machine labels not asked
    call_command(
        "export",
        "--project",
        project.name,
        "--format",
        "trl",
        "--machine-labels",
        "--output",
        out,
        "--no-progress",
    )
    asked = Export.objects.exclude(pk=default.pk).get()
    assert asked.filters["machine_labels"] is True and asked.row_count == 1
    assert asked.stats["final_labels"]["steps"]["machine"] == 2
    assert "| machine: a machine source (suggestions; only when asked) | 1 | 2 |" in asked.card
