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
