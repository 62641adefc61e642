"""Pause, resume and cancel: the transitions (services), the tasks' behaviour while paused,
and a run paused mid-way that a resume finishes with exact counters."""

import pytest

from autolabel import run_chunks, tasks
from autolabel.models import AutolabelRun, ItemStatus, RunStatus
from autolabel.registry import ENGINES
from autolabel.services import (
    autolabel_run_cancel,
    autolabel_run_create,
    autolabel_run_pause,
    autolabel_run_resume,
)
from labeling.errors import Conflict
from labeling.models import OutboxMessage, Suggestion
from tests.autolabel_runs.test_run_progress import Verdicts, _project, _stored_verdicts, _verdicts

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """The chunks the start task sends, kept here instead of going to the broker."""
    chunks: list[list[int]] = []
    monkeypatch.setattr(
        tasks.autolabel_chunk_task, "apply_async", lambda args, queue: chunks.append(args[1])
    )
    return chunks


def _status(run) -> str:
    return AutolabelRun.objects.get(pk=run.pk).status


def test_transitions():
    run = autolabel_run_create(project=_project(3), sources=["symbolic"])
    assert run.status == RunStatus.PENDING
    assert autolabel_run_pause(run=run).status == RunStatus.PAUSED  # before it started
    assert autolabel_run_pause(run=run).status == RunStatus.PAUSED  # idempotent
    resumed = autolabel_run_resume(run=run)
    assert resumed.status == RunStatus.PENDING  # nothing started: queued again, not running
    assert (
        OutboxMessage.objects.filter(
            task="autolabel.tasks.autolabel_run_start_task", args=[run.pk]
        ).count()
        == 1
    )
    assert autolabel_run_resume(run=run).status == RunStatus.PENDING  # idempotent, no resend
    assert OutboxMessage.objects.count() == 1

    AutolabelRun.objects.filter(pk=run.pk).update(status=RunStatus.RUNNING)
    paused = autolabel_run_pause(run=run)
    assert autolabel_run_cancel(run=paused).status == RunStatus.CANCELLED  # cancel while paused
    assert autolabel_run_cancel(run=run).status == RunStatus.CANCELLED  # idempotent
    for impossible in (autolabel_run_pause, autolabel_run_resume):
        with pytest.raises(Conflict):
            impossible(run=run)

    for finished in (RunStatus.DONE, RunStatus.FAILED):
        AutolabelRun.objects.filter(pk=run.pk).update(status=finished)
        for impossible in (autolabel_run_pause, autolabel_run_resume, autolabel_run_cancel):
            with pytest.raises(Conflict, match=finished):
                impossible(run=run)


def test_a_paused_runs_tasks_send_and_process_nothing(monkeypatch, sent):
    engine = Verdicts()
    monkeypatch.setitem(ENGINES, "symbolic", engine)
    run = autolabel_run_create(project=_project(4), sources=["symbolic"])
    autolabel_run_pause(run=run)
    assert tasks.autolabel_run_start_task(run.pk) == 0 and sent == []
    ids = list(run.items.values_list("solution_id", flat=True))
    assert tasks.autolabel_chunk_task(run.pk, ids) == 0
    assert engine.calls == 0
    assert set(run.items.values_list("status", "attempts")) == {(ItemStatus.PENDING, 0)}


def test_pausing_mid_run_stops_processing_and_resume_finishes_with_exact_counters(
    monkeypatch, sent
):
    monkeypatch.setattr(run_chunks, "STOP_CHECK_S", 0.0)
    project = _project(30)

    class PausingAtEighth(Verdicts):
        def __call__(self, solution, params):
            if self.calls == 7:  # the eighth call: the admin presses Pause meanwhile
                autolabel_run_pause(run=AutolabelRun.objects.get(pk=run.pk))
            return super().__call__(solution, params)

    engine = PausingAtEighth(fail_on={"problem 0020"})
    monkeypatch.setitem(ENGINES, "symbolic", engine)
    run = autolabel_run_create(project=project, sources=["symbolic"], params={"chunk_size": 5})
    assert tasks.autolabel_run_start_task(run.pk) == 6
    first_send = list(sent)
    processed = [tasks.autolabel_chunk_task(run.pk, chunk) for chunk in first_send]
    assert processed == [5, 3, 0, 0, 0, 0]  # the second chunk stopped after its third item
    run.refresh_from_db()
    assert (run.status, run.done, run.failed, engine.calls) == (RunStatus.PAUSED, 8, 0, 8)
    assert run.items.filter(status=ItemStatus.PENDING).count() == 22
    assert run.items.filter(attempts=0).count() == 20  # chunks 3 to 6 claimed nothing

    autolabel_run_resume(run=run)
    assert tasks.autolabel_run_start_task(run.pk) == 5  # the 22 pending, in chunks of 5
    for chunk in sent[len(first_send) :]:
        tasks.autolabel_chunk_task(run.pk, chunk)
    run.refresh_from_db()
    assert (run.status, run.total, run.done, run.failed) == (RunStatus.DONE, 30, 29, 1)
    assert engine.calls == 30  # every solution processed once
    assert run.suggestions_written == Suggestion.objects.count() == 29 * 4
    assert _verdicts(run) == _stored_verdicts(project)
    assert run.error_groups == [{"error": "ValueError: no parse", "count": 1}]
    assert run.rate and run.rate > 0


def test_cancel_while_paused_stops_for_good(monkeypatch, sent):
    monkeypatch.setitem(ENGINES, "symbolic", Verdicts())
    run = autolabel_run_create(project=_project(6), sources=["symbolic"])
    tasks.autolabel_run_start_task(run.pk)
    autolabel_run_pause(run=run)
    autolabel_run_cancel(run=run)
    assert tasks.autolabel_run_start_task(run.pk) == 0  # a late redelivery
    assert [tasks.autolabel_chunk_task(run.pk, chunk) for chunk in sent] == [0]
    run.refresh_from_db()
    assert (run.status, run.done) == (RunStatus.CANCELLED, 0)


def test_deleting_the_project_cancels_a_paused_run():
    from labeling.services.projects.delete import project_delete

    run = autolabel_run_create(project=_project(2), sources=["symbolic"])
    autolabel_run_pause(run=run)
    project_delete(project=run.project)
    assert _status(run) == RunStatus.CANCELLED


def test_a_cli_inline_run_stops_at_a_pause_and_a_resume_hands_it_to_the_workers(monkeypatch):
    from django.core.management import call_command

    monkeypatch.setattr(run_chunks, "STOP_CHECK_S", 0.0)
    project = _project(30)

    class PausingAtFifth(Verdicts):
        def __call__(self, solution, params):
            if self.calls == 4:
                autolabel_run_pause(run=AutolabelRun.objects.get(project=project))
            return super().__call__(solution, params)

    engine = PausingAtFifth()
    monkeypatch.setitem(ENGINES, "symbolic", engine)
    call_command("autolabel", "--project", project.name, "--sources", "symbolic", "--inline")
    run = AutolabelRun.objects.get(project=project)
    assert (run.status, run.done, run.inline, engine.calls) == (RunStatus.PAUSED, 5, True, 5)
    run = autolabel_run_resume(run=run)
    assert (run.status, run.inline) == (RunStatus.RUNNING, False)
    assert OutboxMessage.objects.filter(args=[run.pk]).exists()
