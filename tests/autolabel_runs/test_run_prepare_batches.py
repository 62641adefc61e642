"""A start writes a run's items in batches by solution id (autolabel.services:
autolabel_run_prepare_batch, autolabel_run_start): the first window of chunks goes out after
the first batch, not after a million items; the window stays full while workers outrun the
write; the run finishes only once every item is written; a pause or cancel stops the write and
a resume goes on from where it stopped; a start killed mid-write and sent again by the
recovery sweep, or two starts at once, write no item twice."""

from collections import deque
from datetime import timedelta

import pytest
from django.utils import timezone

from annotate.inflight import InFlight
from autolabel import services, tasks
from autolabel.models import AutolabelItem, AutolabelRun, ItemStatus, RunStatus
from autolabel.recovery import lost_jobs
from autolabel.registry import ENGINES
from autolabel.services import (
    autolabel_run_cancel,
    autolabel_run_create,
    autolabel_run_pause,
    autolabel_run_resume,
)
from tests.autolabel_runs.test_run_dispatch import _bare_project
from tests.autolabel_runs.test_run_progress import Verdicts, _project

pytestmark = pytest.mark.django_db
UNWRAPPED = services.autolabel_run_prepare_batch


@pytest.fixture
def broker(monkeypatch):
    """The chunk messages sent, in a FIFO queue instead of the broker."""
    sent: deque = deque()
    monkeypatch.setattr(
        tasks.autolabel_chunk_task, "apply_async", lambda args, queue: sent.append(tuple(args))
    )
    return sent


def _api_run(project, **params) -> AutolabelRun:
    return autolabel_run_create(
        project=project, sources=["symbolic"], params=params, prepare_later=True
    )


def _unique_items(run: AutolabelRun) -> list[int]:
    ids = list(run.items.values_list("solution_id", flat=True))
    assert len(ids) == len(set(ids))
    return sorted(ids)


def test_the_first_window_goes_out_after_the_first_batch(monkeypatch, settings):
    settings.AUTOLABEL_PREPARE_BATCH = 10
    settings.AUTOLABEL_CHUNKS_IN_FLIGHT = 3
    project = _bare_project(45)
    run = _api_run(project, chunk_size=2)
    written_at_send: list[int] = []

    def send(args, queue):
        written_at_send.append(AutolabelItem.objects.filter(run_id=args[0]).count())

    monkeypatch.setattr(tasks.autolabel_chunk_task, "apply_async", send)
    assert tasks.autolabel_run_start_task(run.pk) == 3
    assert written_at_send == [10, 10, 10]  # the old start sent them after all 45 items
    run.refresh_from_db()
    assert (run.prepared, run.total, run.status) == (True, 45, RunStatus.RUNNING)
    assert _unique_items(run) == sorted(project.solutions.values_list("pk", flat=True))


def test_workers_faster_than_the_write_keep_the_window_and_finish_exactly(
    monkeypatch, settings, broker
):
    """Before each batch a worker takes every message: each chunk then ends with no written
    item to send next. The window's places are owed and sent after the next batch; the run
    is not finished while items are still to be written."""
    settings.AUTOLABEL_PREPARE_BATCH = 4
    settings.AUTOLABEL_CHUNKS_IN_FLIGHT = 3
    engine = Verdicts()
    monkeypatch.setitem(ENGINES, "symbolic", engine)
    run = _api_run(_project(25), chunk_size=2)
    original = services.autolabel_run_prepare_batch
    seen: list[tuple[str, int, int]] = []

    def drain_then_write(*, run):
        while broker:
            tasks.autolabel_chunk_task(*broker.popleft())
        row = AutolabelRun.objects.get(pk=run.pk)
        seen.append((row.status, row.done, row.total))
        return original(run=run)

    monkeypatch.setattr(services, "autolabel_run_prepare_batch", drain_then_write)
    tasks.autolabel_run_start_task(run.pk)
    assert len(broker) <= 3
    while broker:
        assert len(broker) <= 3  # never more than the window
        tasks.autolabel_chunk_task(*broker.popleft())
    assert all(status != RunStatus.DONE for status, _, _ in seen)  # not done before prepared
    assert [done for _, done, _ in seen[1:]] == [4, 8, 12, 16, 20, 24]  # the window kept going
    run.refresh_from_db()
    assert (run.status, run.prepared, run.total, run.done) == (RunStatus.DONE, True, 25, 25)
    assert engine.calls == 25
    assert set(run.items.values_list("status", "attempts")) == {(ItemStatus.DONE, 1)}


def _stop_after_batches(monkeypatch, batches: int, stop) -> None:
    original = services.autolabel_run_prepare_batch
    calls = [0]

    def write(*, run):
        more = original(run=run)
        calls[0] += 1
        if calls[0] == batches:
            stop(AutolabelRun.objects.get(pk=run.pk))
        return more

    monkeypatch.setattr(services, "autolabel_run_prepare_batch", write)


def test_a_pause_stops_the_write_and_its_resume_goes_on(monkeypatch, settings, broker):
    settings.AUTOLABEL_PREPARE_BATCH = 10
    project = _bare_project(45)
    run = _api_run(project)
    _stop_after_batches(monkeypatch, 2, lambda run: autolabel_run_pause(run=run))
    tasks.autolabel_run_start_task(run.pk)
    run.refresh_from_db()
    assert (run.status, run.prepared, run.total, run.items.count()) == (
        RunStatus.PAUSED,
        False,
        20,
        20,
    )
    monkeypatch.setattr(services, "autolabel_run_prepare_batch", UNWRAPPED)
    autolabel_run_resume(run=run)
    tasks.autolabel_run_start_task(run.pk)
    run.refresh_from_db()
    assert (run.status, run.prepared, run.total) == (RunStatus.RUNNING, True, 45)
    assert _unique_items(run) == sorted(project.solutions.values_list("pk", flat=True))


def test_a_cancel_stops_the_write(monkeypatch, settings, broker):
    settings.AUTOLABEL_PREPARE_BATCH = 10
    run = _api_run(_bare_project(45))
    _stop_after_batches(monkeypatch, 1, lambda run: autolabel_run_cancel(run=run))
    tasks.autolabel_run_start_task(run.pk)
    run.refresh_from_db()
    assert (run.status, run.prepared, run.total, run.items.count()) == (
        RunStatus.CANCELLED,
        False,
        10,
        10,
    )


def test_a_start_killed_mid_write_is_sent_again_by_the_sweep_and_writes_no_item_twice(
    monkeypatch, settings, broker
):
    settings.AUTOLABEL_PREPARE_BATCH = 10
    settings.RECOVERY_STALL_S = 60
    project = _bare_project(45)
    run = _api_run(project)

    def killed(run):
        raise SystemExit("worker killed")

    _stop_after_batches(monkeypatch, 3, killed)
    with pytest.raises(SystemExit):
        tasks.autolabel_run_start_task(run.pk)
    run.refresh_from_db()
    assert (run.status, run.prepared, run.total, run.items.count()) == (
        RunStatus.RUNNING,
        False,
        30,
        30,
    )
    monkeypatch.setattr(services, "autolabel_run_prepare_batch", UNWRAPPED)
    long_ago = timezone.now() - timedelta(seconds=600)
    AutolabelRun.objects.filter(pk=run.pk).update(
        created_at=long_ago, started_at=long_ago, dispatched_at=long_ago
    )
    lost = lost_jobs(held=InFlight(held=frozenset(), workers=1), depth=lambda queue: 0)
    assert [(kind.task, job.pk) for kind, job in lost] == [
        ("autolabel.tasks.autolabel_run_start_task", run.pk)
    ]
    tasks.autolabel_run_start_task(run.pk)  # what the sweep sends
    run.refresh_from_db()
    assert (run.prepared, run.total) == (True, 45)
    assert _unique_items(run) == sorted(project.solutions.values_list("pk", flat=True))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_starts_at_once_write_each_item_once(settings):
    import threading

    from django.db import connections

    settings.AUTOLABEL_PREPARE_BATCH = 7
    project = _bare_project(120)
    run = _api_run(project)
    errors: list[BaseException] = []
    go = threading.Barrier(2)

    def start() -> None:
        try:
            go.wait(10)
            services.autolabel_run_prepare(run=AutolabelRun.objects.get(pk=run.pk))
        except BaseException as exc:  # noqa: BLE001 - asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    run.refresh_from_db()
    assert (run.prepared, run.total) == (True, 120)
    assert _unique_items(run) == sorted(project.solutions.values_list("pk", flat=True))
