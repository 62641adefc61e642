"""`manage.py predictions import|list`: the service's behaviour from the command line."""

import io

import pytest
from django.core.management import CommandError, call_command

from labeling.models import Suggestion
from tests.predictions.conftest import jsonl


def test_import_then_list(solutions, tmp_path):
    project = solutions["project"]
    path = tmp_path / "preds.jsonl"
    path.write_bytes(jsonl([{"id": "s0", "labels": [1, -1]}, {"id": "s1", "scores": [0.4]}]))
    out = io.StringIO()
    call_command(
        "predictions",
        "import",
        str(path),
        "--project",
        str(project.pk),
        "--name",
        "cli-prm",
        "--version",
        "7",
        stdout=out,
    )
    assert "2 solutions: 3 step labels new, 0 updated" in out.getvalue()
    assert Suggestion.objects.filter(source="prediction", agent="cli-prm@7").count() == 3
    call_command(
        "predictions",
        "import",
        str(path),
        "--project",
        project.name,
        "--name",
        "cli-prm",
        "--version",
        "7",
        stdout=out,
    )
    assert "0 step labels new, 3 updated" in out.getvalue()
    listed = io.StringIO()
    call_command("predictions", "list", "--project", str(project.pk), stdout=listed)
    assert listed.getvalue().startswith("cli-prm@7\t3 steps\t2 solutions")


def test_json_file_by_its_name(solutions, tmp_path):
    path = tmp_path / "preds.json"
    path.write_text('[{"id": "s2", "name": "m", "version": "1", "labels": [0, 0, 0, 0]}]')
    call_command(
        "predictions",
        "import",
        str(path),
        "--project",
        str(solutions["project"].pk),
        stdout=io.StringIO(),
    )
    assert Suggestion.objects.filter(agent="m@1").count() == 4


def test_a_bad_file_stores_nothing_and_says_where(solutions, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(jsonl([{"id": "s0", "labels": [1]}, {"id": "ghost", "labels": [1]}]))
    with pytest.raises(
        CommandError, match=r"bad.jsonl:2: id: no solution with id 'ghost'.*nothing was stored"
    ):
        call_command(
            "predictions",
            "import",
            str(path),
            "--project",
            str(solutions["project"].pk),
            "--name",
            "m",
            "--version",
            "1",
        )
    assert not Suggestion.objects.exists()
    with pytest.raises(CommandError, match="no such file"):
        call_command(
            "predictions",
            "import",
            str(tmp_path / "none.jsonl"),
            "--project",
            str(solutions["project"].pk),
        )
    with pytest.raises(CommandError, match="No project"):
        call_command("predictions", "list", "--project", "no-such-project")
