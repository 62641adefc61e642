"""An export's life: pending → running → done (immutable) or failed; deleting removes it."""

import pytest
from django.core.files.storage import default_storage
from django.db import connection, connections

from labeling.models import Export, StepLabel
from labeling.services.exports import snapshots as service
from labeling.services.exports.snapshots import export_build, export_create, export_delete
from tests.exports.conftest import file_bytes, read_rows, steplab_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported(project, tmp_path):
    from labeling.services.imports import import_file

    path = steplab_file(tmp_path / "s.jsonl", 12)
    import_file(project=project, path=path, fmt="steplab", labels_as="annotations")


def test_build_records_counts_progress_file_and_card(imported, project):
    export = export_create(project=project, created_by=None, format="trl")
    assert export.status == "pending" and not export.file
    export = export_build(export=export, chunk_size=5)
    stored = Export.objects.get(pk=export.pk)
    assert stored.status == "done" and stored.finished_at and stored.started_at
    assert (stored.solutions_total, stored.solutions_done) == (12, 12)
    assert stored.row_count == 12 and stored.step_count == len(
        [s for r in read_rows(stored) for s in r["labels"]]
    )
    assert (
        stored.file.name
        == f"exports/{stored.pk}/project-{project.name.split()[-1]}-trl-{stored.pk}.jsonl"
    )
    assert stored.sha256 in stored.card and "## Licences" in stored.card
    assert stored.stats["rows"] == 12


def test_a_done_export_is_immutable(imported, project):
    export = export_build(export=export_create(project=project, created_by=None, format="trl"))
    before = file_bytes(export)
    StepLabel.objects.update(rating=-1)
    again = export_build(export=Export.objects.get(pk=export.pk))
    assert again.sha256 == export.sha256 and file_bytes(again) == before


def test_a_failure_is_recorded_and_leaves_no_file(imported, project, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(service, "_store", broken)
    export = export_build(export=export_create(project=project, created_by=None, format="trl"))
    stored = Export.objects.get(pk=export.pk)
    assert stored.status == "failed" and stored.error == {"message": "internal error: disk full"}
    assert not stored.file and not stored.sha256
    monkeypatch.undo()
    retried = export_build(export=stored)  # a failed export can be built again
    assert retried.status == "done" and default_storage.exists(retried.file.name)


def test_an_empty_project_gives_an_empty_file(project):
    export = export_build(export=export_create(project=project, created_by=None, format="trl"))
    assert export.status == "done" and export.row_count == 0 and file_bytes(export) == b""


def test_delete_removes_the_file(imported, project, django_capture_on_commit_callbacks):
    export = export_build(export=export_create(project=project, created_by=None, format="trl"))
    name = export.file.name
    assert default_storage.exists(name)
    with django_capture_on_commit_callbacks(execute=True):
        export_delete(export=export)
    assert not Export.objects.filter(pk=export.pk).exists()
    assert not default_storage.exists(name)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgres_reads_one_snapshot_and_publishes_progress_on_the_side(imported, project):
    reference = export_build(export=export_create(project=project, created_by=None, format="trl"))
    export = export_create(project=project, created_by=None, format="trl")
    seen = []

    def progress(done: int, total: int) -> None:
        other = connections.create_connection("default")
        try:
            with other.cursor() as cursor:
                cursor.execute(
                    "SELECT solutions_done FROM labeling_export WHERE id = %s", [export.pk]
                )
                seen.append(cursor.fetchone()[0])
                if done == 5:  # a concurrent writer relabels everything mid-export
                    cursor.execute("UPDATE labeling_steplabel SET rating = -1")
        finally:
            other.close()

    assert not connection.in_atomic_block
    export = export_build(export=export, chunk_size=5, progress=progress)
    assert seen == [5, 10, 12]  # visible to other connections while the build runs
    assert StepLabel.objects.filter(rating=1).count() == 0
    # The file is the snapshot taken before the relabel, also for the chunks read after it.
    assert export.sha256 == reference.sha256


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("fmt", "filters"),
    [
        ("trl", {"label_source": "imported"}),
        ("prm800k", {"label_source": "imported"}),
        ("pairwise", {"label_source": "imported"}),
        ("processbench", {"label_source": "auto_any"}),
        ("math_shepherd", {"label_source": "auto_any"}),
    ],
)
def test_reading_ahead_in_the_snapshot_gives_the_same_bytes(
    project, monkeypatch, settings, fmt, filters
):
    """In its own snapshot the build reads the next chunks on a second thread; inside a
    caller's transaction it reads one chunk at a time. Same file either way. (In one process:
    tests/exports/test_format_process.py has the two-process build.)"""
    from django.db import transaction

    from labeling.exporters import source
    from labeling.services.imports import import_file
    from tests.exports.conftest import DATA

    import_file(project=project, path=DATA / "prm800k_sample.jsonl", labels_as="annotations")
    import_file(project=project, path=DATA / "processbench_sample.jsonl", labels_as="suggestions")
    threads = []
    real = source.read_ahead

    def spy(items, **kwargs):
        threads.append(True)
        return real(items, **kwargs)

    monkeypatch.setattr(source, "read_ahead", spy)
    settings.EXPORT_FORMAT_PROCESS = "never"
    options = {"format": fmt, "filters": filters, "label_policy": {"soft_labels": True}}
    with transaction.atomic():
        plain = export_build(
            export=export_create(project=project, created_by=None, **options), chunk_size=3
        )
    assert threads == []
    ahead = export_build(
        export=export_create(project=project, created_by=None, **options), chunk_size=3
    )
    assert threads == [True]
    assert plain.status == ahead.status == "done"
    assert ahead.row_count > 0 and file_bytes(ahead) == file_bytes(plain)
    assert ahead.stats == plain.stats
