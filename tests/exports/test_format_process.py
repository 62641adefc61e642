"""An export formatted in a second process (labeling.services.exports.writing,
labeling.exporters.process): the same bytes as in one process, in one snapshot, with
failures of either process failing the export and publishing nothing."""

import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest
from django.core.files.storage import default_storage
from django.db import connections

from labeling.exporters import process as format_process
from labeling.exporters.chunks import ChunkQueries
from labeling.exporters.formats.trl import TrlFormat
from labeling.models import Export, StepLabel
from labeling.services.exports import writing
from labeling.services.exports.snapshots import _file_name, export_build, export_create
from tests.exports.conftest import DATA, file_bytes

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

OPTIONS = [
    ("trl", {"label_source": "imported"}),
    ("prm800k", {"label_source": "imported"}),
    ("pairwise", {"label_source": "imported"}),
    ("openrlhf", {"label_source": "imported"}),
    ("dense_rewards", {"label_source": "imported"}),
    ("processbench", {"label_source": "auto_any"}),
    ("math_shepherd", {"label_source": "auto_any"}),
    ("trl", {}),  # final labels, the default
]


@pytest.fixture
def samples(project):
    from labeling.services.imports import import_file

    import_file(project=project, path=DATA / "prm800k_sample.jsonl", labels_as="annotations")
    import_file(project=project, path=DATA / "processbench_sample.jsonl", labels_as="suggestions")


@pytest.fixture
def tmp_root(tmp_path, settings) -> Path:
    root = tmp_path / "builds"
    settings.EXPORT_TMP_DIR = str(root)
    return root


@pytest.fixture
def spied(monkeypatch):
    """How many exports went through a second process."""
    calls = []
    real = writing.consume_in_process

    def spy(*args, **kwargs):
        calls.append(True)
        return real(*args, **kwargs)

    monkeypatch.setattr(writing, "consume_in_process", spy)
    return calls


def _build(project, fmt, filters, *, file_type="jsonl", chunk_size=3):
    export = export_create(
        project=project,
        created_by=None,
        format=fmt,
        file_type=file_type,
        filters=filters,
        label_policy={"soft_labels": True} if fmt == "trl" else None,
        split_policy={"mode": "hash", "train": 0.8, "test": 0.2},
    )
    return export_build(export=export, chunk_size=chunk_size)


@pytest.mark.parametrize("file_type", ["jsonl", "jsonl.gz", "parquet"])
@pytest.mark.parametrize(("fmt", "filters"), OPTIONS)
def test_two_processes_write_the_bytes_of_one(
    samples, project, settings, spied, fmt, filters, file_type
):
    settings.EXPORT_FORMAT_PROCESS = "never"
    one = _build(project, fmt, filters, file_type=file_type)
    assert spied == []
    settings.EXPORT_FORMAT_PROCESS = "always"
    two = _build(project, fmt, filters, file_type=file_type)
    assert spied == [True]
    assert one.status == two.status == "done", (one.error, two.error)
    assert two.row_count > 0 and file_bytes(two) == file_bytes(one)
    assert two.sha256 == one.sha256 and two.stats == one.stats
    assert (two.solutions_done, two.step_count) == (one.solutions_done, one.step_count)


def test_auto_takes_two_processes_only_with_two_cpus_and_more_than_a_chunk(
    samples, project, settings, spied, monkeypatch
):
    settings.EXPORT_FORMAT_PROCESS = "auto"
    monkeypatch.setattr(writing, "usable_cpus", lambda: 2)
    _build(project, "trl", {}, chunk_size=1000)  # one chunk: not worth a process
    assert spied == []
    _build(project, "trl", {}, chunk_size=3)
    assert spied == [True]
    monkeypatch.setattr(writing, "usable_cpus", lambda: 1)  # one CPU: as before, one process
    _build(project, "trl", {}, chunk_size=3)
    assert spied == [True]


def test_progress_is_published_as_the_child_writes(samples, project, settings):
    settings.EXPORT_FORMAT_PROCESS = "always"
    seen = []
    export = export_create(project=project, created_by=None, format="trl")
    export = export_build(export=export, chunk_size=3, progress=lambda d, t: seen.append((d, t)))
    total = export.solutions_total
    assert export.status == "done" and total > 6
    assert [d for d, _ in seen] == [*range(3, total, 3), total]
    assert {t for _, t in seen} == {total}


def test_the_snapshot_holds_while_rows_change_mid_export(samples, project, settings):
    settings.EXPORT_FORMAT_PROCESS = "never"
    reference = _build(project, "trl", {"label_source": "imported"})
    settings.EXPORT_FORMAT_PROCESS = "always"
    export = export_create(
        project=project,
        created_by=None,
        format="trl",
        filters={"label_source": "imported"},
        label_policy={"soft_labels": True},
        split_policy={"mode": "hash", "train": 0.8, "test": 0.2},
    )
    changed = []

    def progress(done: int, total: int) -> None:
        if changed:
            return
        other = connections.create_connection("default")
        try:  # a concurrent writer relabels and rewrites every step after the first chunk
            with other.cursor() as cursor:
                cursor.execute("UPDATE labeling_steplabel SET rating = -1")
                cursor.execute("UPDATE labeling_step SET text = 'changed'")
                changed.append(cursor.rowcount)
        finally:
            other.close()

    export = export_build(export=export, chunk_size=3, progress=progress)
    assert changed and changed[0] > 0
    assert StepLabel.objects.filter(rating=1).count() == 0
    assert export.status == "done" and export.sha256 == reference.sha256


def _nothing_published(export: Export, tmp_root: Path) -> None:
    stored = Export.objects.get(pk=export.pk)
    assert stored.status == "failed" and not stored.file and not stored.sha256
    assert not default_storage.exists(f"exports/{export.pk}/{_file_name(stored)}")
    assert not tmp_root.exists() or list(tmp_root.iterdir()) == []
    assert multiprocessing.active_children() == []  # the child is gone


def test_a_failing_formatter_fails_the_export_and_publishes_nothing(
    samples, project, settings, monkeypatch, tmp_root
):
    settings.EXPORT_FORMAT_PROCESS = "always"
    real, parent, fed = TrlFormat.feed, os.getpid(), []

    def feed(self, record, split):
        assert os.getpid() != parent  # runs in the child
        fed.append(1)
        if len(fed) == 5:
            raise ValueError("a row that cannot be formatted")
        return real(self, record, split)

    monkeypatch.setattr(TrlFormat, "feed", feed)
    export = _build(project, "trl", {"label_source": "imported"})
    assert export.error == {"message": "internal error: a row that cannot be formatted"}
    _nothing_published(export, tmp_root)


def test_a_killed_formatter_fails_the_export_and_publishes_nothing(
    samples, project, settings, monkeypatch, tmp_root
):
    settings.EXPORT_FORMAT_PROCESS = "always"
    real, fed = TrlFormat.feed, []

    def feed(self, record, split):
        fed.append(1)
        if len(fed) == 5:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(self, record, split)

    monkeypatch.setattr(TrlFormat, "feed", feed)
    export = _build(project, "trl", {"label_source": "imported"})
    assert export.error == {
        "message": "internal error: the export's formatting process died (killed by signal 9) "
        "before it finished"
    }
    _nothing_published(export, tmp_root)


def test_a_failing_read_stops_the_formatter_and_publishes_nothing(
    samples, project, settings, monkeypatch, tmp_root
):
    settings.EXPORT_FORMAT_PROCESS = "always"
    real, reads = ChunkQueries.fetch, []

    def fetch(self, ids):
        reads.append(1)
        if len(reads) == 3:
            raise OSError("the database went away")
        return real(self, ids)

    monkeypatch.setattr(ChunkQueries, "fetch", fetch)
    export = _build(project, "trl", {"label_source": "imported"})
    assert export.error == {"message": "internal error: the database went away"}
    _nothing_published(export, tmp_root)


def _slow_consumer(items, report):
    for n, item in enumerate(items):
        if n == 0:
            time.sleep(0.5)  # the parent runs ahead meanwhile, as far as the pipe lets it
        report(len(item))
    return "done"


def test_the_parent_runs_at_most_a_few_items_ahead():
    produced, at_first_report = [], []

    def items():
        for _ in range(20):
            produced.append(1)
            yield b"x" * (1 << 20)  # 1 MiB, more than a pipe holds

    def progress(n: int) -> None:
        if not at_first_report:
            at_first_report.append(len(produced))

    result = format_process.consume_in_process(items(), _slow_consumer, on_progress=progress)
    assert result == "done" and len(produced) == 20
    assert at_first_report[0] <= 4  # bounded: not all 20 items read while the child was busy


def _killed_on_first(items, report):
    for _ in items:
        os.kill(os.getpid(), signal.SIGKILL)


def _fails_on_first(items, report):
    for _ in items:
        report(1)
        raise ValueError("no good")


def _slowly(n: int):
    for _ in range(n):
        time.sleep(0.2)  # the child's end or error reaches the parent between two items
        yield b"small"


def test_a_child_gone_between_items_is_noticed():
    with pytest.raises(format_process.FormatterDied, match=r"killed by signal 9"):
        format_process.consume_in_process(_slowly(5), _killed_on_first, on_progress=print)
    assert multiprocessing.active_children() == []


def test_a_child_error_between_items_is_raised_after_its_progress():
    seen = []
    with pytest.raises(ValueError, match="no good"):
        format_process.consume_in_process(_slowly(5), _fails_on_first, on_progress=seen.append)
    assert seen == [1] and multiprocessing.active_children() == []


def _consume_in_a_pool_worker(n: int) -> tuple[str, bool]:
    daemonic = multiprocessing.current_process().daemon
    result = format_process.consume_in_process(_slowly(n), _count, on_progress=lambda n: None)
    return result, daemonic


def _count(items, report):
    return f"{sum(1 for _ in items)} items"


def test_the_formatter_starts_inside_a_celery_prefork_worker():
    """Celery's prefork pool (billiard) runs a task in a daemonic process, where multiprocessing
    refused to start the formatting child: every export of more than one chunk failed there."""
    import billiard

    with billiard.Pool(1) as pool:
        result, daemonic = pool.apply(_consume_in_a_pool_worker, (2,))
    assert daemonic is True  # the worker is daemonic, as Celery's are
    assert result == "2 items"
