"""A many-domains (`mixed`) project's imports: each problem names its domain (steplab's
`domain` field, or the import's domain option for a dataset format); a row with an unknown,
missing or foreign domain fails the whole file with its line and field."""

import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db.models import Count
from rest_framework.test import APIClient

from labeling.errors import ValidationFailed
from labeling.importers import ImportFileError
from labeling.models import ImportJob, Problem, Project, Suggestion
from labeling.services.imports import import_file, import_file_validate, import_job_run
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db
DEMO = Path(__file__).resolve().parents[2] / "labeling" / "demo"


def _rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _row(i: int, domain: str | None = None) -> dict:
    row = {"id": f"r{i}", "problem": f"Problem {i}", "steps": ["a", "b"]}
    if domain is not None:
        row["domain"] = domain
    return row


def test_each_steplab_row_names_its_problems_domain(tmp_path):
    project = ProjectFactory(domain="mixed")
    path = _rows(tmp_path / "m.jsonl", [_row(1, "math"), _row(2, "text"), _row(3, "agent")])
    result = import_file(project=project, path=path, fmt="steplab")
    assert result.problems_created == 3
    got = dict(Problem.objects.filter(project=project).values_list("text", "domain"))
    assert got == {"Problem 1": "math", "Problem 2": "text", "Problem 3": "agent"}


def test_a_dataset_file_gets_the_import_domain_option(tmp_path):
    project = ProjectFactory(domain="mixed")
    import_file(project=project, path=DEMO / "processbench_demo.jsonl", domain="math")
    import_file(project=project, path=DEMO / "text_demo.jsonl", fmt="steplab", domain="text")
    counts = {
        d: Problem.objects.filter(project=project, domain=d).count() for d in ("math", "text")
    }
    assert counts == {"math": 12, "text": 4}
    # A row's own domain wins over the option.
    path = _rows(tmp_path / "own.jsonl", [_row(9, "code")])
    import_file(project=project, path=path, fmt="steplab", domain="text")
    assert Problem.objects.get(project=project, text="Problem 9").domain == "code"


@pytest.mark.parametrize(
    ("project_domain", "rows", "line", "message"),
    [
        ("mixed", [_row(1, "math"), _row(2, "poetry")], 2, "unknown domain 'poetry'"),
        ("mixed", [_row(1, "math"), _row(2, "mixed")], 2, "unknown domain 'mixed'"),
        ("mixed", [_row(1, "math"), _row(2, "text"), _row(3)], 3, "missing field"),
        ("math", [_row(1, "math"), _row(2, "text")], 2, "the project's domain is 'math'"),
        ("mixed", [_row(1, "math"), {**_row(2), "domain": 7}], 2, "expected a string"),
    ],
)
def test_a_bad_domain_fails_the_file_with_its_line(tmp_path, project_domain, rows, line, message):
    project = ProjectFactory(domain=project_domain)
    path = _rows(tmp_path / "bad.jsonl", rows)
    with pytest.raises(ImportFileError) as caught:
        import_file(project=project, path=path, fmt="steplab")
    assert (caught.value.file, caught.value.line, caught.value.field) == (
        "bad.jsonl",
        line,
        "domain",
    )
    assert message in caught.value.message
    with pytest.raises(ImportFileError):
        import_file_validate(project=project, path=path, fmt="steplab")
    assert not Problem.objects.filter(project=project).exists()  # nothing of the file


def test_a_project_of_one_domain_takes_rows_of_that_domain_as_its_own(tmp_path):
    project = ProjectFactory(domain="text")
    path = _rows(tmp_path / "t.jsonl", [_row(1, "text"), _row(2)])
    import_file(project=project, path=path, fmt="steplab")
    # Stored blank ("the project's"), so a later change of the project's domain carries them.
    assert set(Problem.objects.filter(project=project).values_list("domain", flat=True)) == {""}


def test_a_bad_domain_option_is_refused_before_reading(tmp_path):
    path = _rows(tmp_path / "ok.jsonl", [_row(1, "math")])
    with pytest.raises(ValidationFailed) as unknown:
        import_file(project=ProjectFactory(domain="mixed"), path=path, domain="poetry")
    assert unknown.value.details["field"] == "domain"
    with pytest.raises(ValidationFailed) as foreign:
        import_file(project=ProjectFactory(domain="math"), path=path, domain="text")
    assert "only a many-domains project" in foreign.value.message
    assert not Problem.objects.exists()


def test_the_cli_and_the_api_take_the_domain_option(tmp_path):
    project = ProjectFactory(domain="mixed", name="Many")
    rows = [{"id": "t1", "problem": "Translate: bonjour", "steps": ["hello"]}]
    path = _rows(tmp_path / "plain.jsonl", rows)
    with pytest.raises(CommandError):
        call_command(
            "import", str(path), "--project", "Many", "--no-progress", stderr=io.StringIO()
        )
    args = ("import", str(path), "--project", "Many", "--domain", "text", "--no-progress")
    call_command(*args, stdout=io.StringIO())
    assert Problem.objects.get(project=project).domain == "text"

    admin = UserFactory()
    MembershipFactory(project=project, user=admin, role="admin")
    client = APIClient()
    client.force_authenticate(admin)
    url = f"/api/projects/{project.pk}/imports/"
    bad = client.post(url, {"file": SimpleUploadedFile("a.jsonl", b"{}"), "domain": "poetry"})
    assert bad.status_code == 400
    rows = [{"id": "c1", "problem": "Write f", "steps": ["def f(): pass"]}]
    upload = SimpleUploadedFile("c.jsonl", "".join(json.dumps(r) + "\n" for r in rows).encode())
    made = client.post(url, {"file": upload, "format": "steplab", "domain": "code"})
    assert made.status_code == 202, made.content
    assert made.json()["domain"] == "code"
    # What the worker's task does with the job (the on_commit send does not run in here).
    job = import_job_run(job=ImportJob.objects.get(pk=made.json()["id"]))
    assert job.status == "done", job.error
    assert Problem.objects.get(project=project, text="Write f").domain == "code"


def test_the_demo_mixes_the_demo_files_domains():
    from labeling.management.commands.load_demo import MIXED_PROJECT

    call_command("load_demo", stdout=io.StringIO())
    call_command("load_demo", stdout=io.StringIO())  # idempotent
    project = Project.objects.get(name=MIXED_PROJECT)
    assert project.domain == "mixed"
    counts = dict(
        project.problems.values_list("domain").annotate(n=Count("id")).values_list("domain", "n")
    )
    assert counts == {"math": 12, "text": 4, "agent": 4}
    # The math rows' ProcessBench labels came along as suggestions.
    assert Suggestion.objects.filter(step__solution__project=project, source="import").exists()
