"""import_job_run: the service an uploaded file's Celery task calls."""

import pytest
from django.core.files.base import ContentFile

from labeling.models import ImportJob, ImportStatus, Solution
from labeling.services.imports import import_job_run, jobs, parsing
from tests.factories import ProjectFactory

from .conftest import DATA, table_counts


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


def make_job(content: bytes, **fields) -> ImportJob:
    job = ImportJob(
        project=fields.pop("project", None) or ProjectFactory(),
        filename="up.jsonl",
        bytes_total=len(content),
        **fields,
    )
    job.file.save("up.jsonl", ContentFile(content), save=False)
    job.save()
    return job


@pytest.mark.django_db
def test_job_runs_validates_then_writes(monkeypatch):
    monkeypatch.setattr(parsing, "BATCH_SOLUTIONS", 10)
    published = []
    real = jobs._job_progress
    monkeypatch.setattr(
        jobs, "_job_progress", lambda pk, b, r: (published.append((b, r)), real(pk, b, r))
    )
    content = (DATA / "processbench_sample.jsonl").read_bytes()
    job = make_job(content, labels_as="annotations")
    job = import_job_run(job=job)
    job.refresh_from_db()
    assert job.status == ImportStatus.DONE
    assert job.detected_format == "processbench"
    assert job.result["solutions_created"] == 100 and job.result["annotations_created"] == 100
    assert (job.bytes_done, job.rows_done) == (len(content), 100)
    assert job.error == {} and job.finished_at is not None
    # The validation pass published 0..50% of the bytes, ten rows a batch.
    assert [r for _, r in published] == list(range(10, 101, 10))
    assert published[-1][0] == len(content) // 2
    assert Solution.objects.filter(project=job.project).count() == 100
    # Each solution records the job that made it (the solutions explorer filters on it).
    assert Solution.objects.filter(project=job.project, import_job=job).count() == 100
    # A redelivered task finds the job done and leaves it.
    again = import_job_run(job=job)
    assert again.status == ImportStatus.DONE and Solution.objects.count() == 100


@pytest.mark.django_db
def test_failed_job_records_the_error_and_imports_nothing():
    good = b'{"problem": "p", "steps": ["a"]}\n'
    job = make_job(good * 2 + b'{"problem": "p", "steps": [null]}\n', format="steplab")
    job = import_job_run(job=job)
    job.refresh_from_db()
    assert job.status == ImportStatus.FAILED
    assert job.error == {
        "message": "expected a string, got null",
        "file": "up.jsonl",
        "line": 3,
        "field": "steps[0]",
    }
    assert job.result == {} and job.finished_at is not None
    assert set(table_counts().values()) == {0}


@pytest.mark.django_db
def test_a_failed_job_can_be_run_again():
    job = make_job(b"{oops\n")
    assert import_job_run(job=job).status == ImportStatus.FAILED
    content = b'{"problem": "p", "steps": ["a"]}\n'
    job.file.save("fixed.jsonl", ContentFile(content), save=False)
    job.bytes_total = len(content)
    job.save()
    job = import_job_run(job=job)
    assert (job.status, job.error, job.result["solutions_created"]) == (ImportStatus.DONE, {}, 1)


@pytest.mark.django_db
def test_write_pass_progress_is_off_inside_a_transaction():
    job = make_job(b"")
    with jobs._write_pass_progress(job, 0) as publish:
        assert publish is None  # pytest-django wraps the test in a transaction


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_write_pass_progress_goes_out_on_a_second_connection():
    job = make_job(b'{"problem": "p", "steps": ["a"]}\n' * 10)
    with jobs._write_pass_progress(job, 1000) as publish:
        assert publish is not None
        publish(40, 7)
        job.refresh_from_db()
        assert (job.bytes_done, job.rows_done) == (1020, 7)
    job = import_job_run(job=job)
    assert job.status == ImportStatus.DONE and job.result["solutions_created"] == 1
