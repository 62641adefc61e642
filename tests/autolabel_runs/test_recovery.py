"""The recovery sweep's choice of lost jobs (autolabel.recovery.lost_jobs), one rule at a time.

The end-to-end proof with a real worker and a Redis that loses its data is
tests/faults/test_redis_lost.py; here each rule that keeps a job from being sent twice is
checked on its own.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from annotate.inflight import InFlight
from autolabel.models import AutolabelItem, AutolabelRun, RunStatus
from autolabel.recovery import lost_jobs
from autolabel.services import autolabel_run_resume
from labeling.models import Export, ImportJob, OutboxMessage
from labeling.models.exports import ExportStatus
from tests.factories import ProjectFactory, SolutionFactory
from training_runs.models import TrainingRun, TrainingStatus

pytestmark = pytest.mark.django_db

NOBODY = InFlight(held=frozenset(), workers=1)
START = "autolabel.tasks.autolabel_run_start_task"
CHUNK = "autolabel.tasks.autolabel_chunk_task"


def _empty(queue: str) -> int:
    return 0


def _ago(seconds: float):
    return timezone.now() - timedelta(seconds=seconds)


def _lost(held: InFlight = NOBODY, depth=_empty) -> list[tuple[str, int]]:
    return [(kind.name, job.pk) for kind, job in lost_jobs(held=held, depth=depth)]


@pytest.fixture
def stale_run(settings):
    settings.RECOVERY_STALL_S = 60
    project = ProjectFactory()
    solutions = [SolutionFactory(problem__project=project) for _ in range(3)]
    run = AutolabelRun.objects.create(project=project, sources=["answer"], total=3)
    AutolabelRun.objects.filter(pk=run.pk).update(
        status=RunStatus.RUNNING, created_at=_ago(600), started_at=_ago(600)
    )
    for solution in solutions:
        AutolabelItem.objects.create(run=run, solution=solution)
    AutolabelItem.objects.filter(run=run).update(updated_at=_ago(300))
    return run


def test_a_running_run_with_no_sign_of_life_and_nobody_holding_it_is_lost(stale_run):
    assert _lost() == [("autolabel run", stale_run.pk)]


@pytest.mark.parametrize("field", ["rate_at", "dispatched_at"])
def test_recent_progress_keeps_a_run(stale_run, field):
    """A chunk that ended (its completion counted: rate_at) or a chunk sent (each chunk that
    ends sends the next: dispatched_at)."""
    AutolabelRun.objects.filter(pk=stale_run.pk).update(**{field: timezone.now()})
    assert _lost() == []


def test_the_sweep_reads_no_runs_items(stale_run):
    """Every minute, for every unfinished run: a read of a million items' rows each time."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert _lost() == [("autolabel run", stale_run.pk)]
    assert not [q for q in queries if AutolabelItem._meta.db_table in q["sql"]]


@pytest.mark.parametrize("task", [START, CHUNK])
def test_a_worker_holding_any_task_of_the_run_keeps_it(stale_run, task):
    held = InFlight(held=frozenset({(task, stale_run.pk)}), workers=1)
    assert _lost(held) == []
    other = InFlight(held=frozenset({(task, stale_run.pk + 1)}), workers=1)
    assert _lost(other) == [("autolabel run", stale_run.pk)]


def test_messages_waiting_in_its_queue_keep_a_run(stale_run):
    assert _lost(depth=lambda queue: 1 if queue == "default" else 0) == []  # its start
    assert _lost(depth=lambda queue: 1 if queue == "autolabel" else 0) == []  # its chunks
    assert _lost(depth=lambda queue: 1 if queue == "gpu" else 0) == [
        ("autolabel run", stale_run.pk)
    ]


@pytest.mark.parametrize(
    "status", [RunStatus.DONE, RunStatus.FAILED, RunStatus.CANCELLED, RunStatus.PAUSED]
)
def test_finished_and_paused_runs_are_never_sent_again(stale_run, status):
    AutolabelRun.objects.filter(pk=stale_run.pk).update(status=status)
    assert _lost() == []


def test_a_resume_is_a_sign_of_life(stale_run):
    AutolabelRun.objects.filter(pk=stale_run.pk).update(status=RunStatus.PAUSED)
    autolabel_run_resume(run=stale_run)
    OutboxMessage.objects.update(sent_at=timezone.now())  # its start message went
    assert _lost() == []  # its start task may be chunking it: not sent twice
    AutolabelRun.objects.filter(pk=stale_run.pk).update(rate_at=_ago(300))
    assert _lost() == [("autolabel run", stale_run.pk)]


def test_a_pending_run_whose_start_message_was_lost_is_sent_again(settings):
    settings.RECOVERY_STALL_S = 60
    run = AutolabelRun.objects.create(project=ProjectFactory(), sources=["answer"])
    assert _lost() == []  # just created: its start message may be on its way
    AutolabelRun.objects.filter(pk=run.pk).update(created_at=_ago(120))
    assert _lost() == [("autolabel run", run.pk)]


def test_exports_imports_and_training_runs(settings):
    settings.RECOVERY_STALL_S = 60
    project = ProjectFactory()
    export = Export.objects.create(project=project, format="trl")
    Export.objects.filter(pk=export.pk).update(
        status=ExportStatus.RUNNING, created_at=_ago(900), started_at=_ago(900)
    )
    job = ImportJob.objects.create(project=project, filename="a.jsonl")
    ImportJob.objects.filter(pk=job.pk).update(created_at=_ago(900))
    live = TrainingRun.objects.create(project=project, base_model="/m")
    TrainingRun.objects.filter(pk=live.pk).update(
        status=TrainingStatus.RUNNING, created_at=_ago(900), heartbeat_at=_ago(5)
    )
    stale = TrainingRun.objects.create(project=project, base_model="/m")
    TrainingRun.objects.filter(pk=stale.pk).update(
        status=TrainingStatus.RUNNING, created_at=_ago(900), heartbeat_at=_ago(600)
    )
    assert sorted(_lost()) == sorted(
        [("export", export.pk), ("import", job.pk), ("training run", stale.pk)]
    )
    busy_exports = _lost(depth=lambda queue: 3 if queue == "exports" else 0)
    assert ("export", export.pk) not in busy_exports
    held = InFlight(held=frozenset({("labeling.tasks.export_build_task", export.pk)}), workers=1)
    assert ("export", export.pk) not in _lost(held)


class _Inspect:
    def __init__(self, active=None, reserved=None, scheduled=None):
        self.replies = {"active": active, "reserved": reserved, "scheduled": scheduled}

    def active(self):
        return self.replies["active"]

    def reserved(self):
        return self.replies["reserved"]

    def scheduled(self):
        return self.replies["scheduled"]


def test_in_flight_reads_running_prefetched_and_retrying_tasks(monkeypatch):
    from annotate import inflight

    fake = _Inspect(
        active={"w1@h": [{"name": CHUNK, "args": [7, [1, 2]]}]},
        reserved={"w2@h": [{"name": START, "args": [8]}]},
        scheduled={"w1@h": [{"eta": "…", "request": {"name": CHUNK, "args": [9, [3]]}}]},
    )
    monkeypatch.setattr(inflight.app.control, "inspect", lambda timeout: fake)
    held = inflight.in_flight()
    assert held.workers == 2
    assert held.holds(CHUNK, 7) and held.holds(START, 8) and held.holds(CHUNK, 9)
    assert not held.holds(START, 7)

    monkeypatch.setattr(inflight.app.control, "inspect", lambda timeout: _Inspect())
    assert inflight.in_flight() is None  # nobody answered: nothing can be called lost


def test_a_run_the_cli_processes_inline_is_never_sent_to_workers(stale_run):
    AutolabelRun.objects.filter(pk=stale_run.pk).update(inline=True)
    assert _lost() == []


def test_an_export_that_writes_progress_is_alive(settings):
    """The CLI builds an export in its own process: no worker holds it, its heartbeat does."""
    settings.RECOVERY_STALL_S = 60
    export = Export.objects.create(project=ProjectFactory(), format="trl")
    Export.objects.filter(pk=export.pk).update(
        status=ExportStatus.RUNNING, created_at=_ago(900), started_at=_ago(900)
    )
    assert _lost() == [("export", export.pk)]
    Export.objects.filter(pk=export.pk).update(heartbeat_at=_ago(5))
    assert _lost() == []


def test_building_an_export_writes_its_heartbeat_with_its_progress():
    from labeling.services.exports.snapshots import export_build, export_create
    from labeling.services.imports import import_file
    from tests.conftest import PROCESSBENCH

    project = ProjectFactory()
    import_file(project=project, path=PROCESSBENCH, fmt="processbench", labels_as="annotations")
    export = export_create(project=project, created_by=None, format="processbench")
    beats = []
    export_build(
        export=export,
        chunk_size=10,
        progress=lambda done, total: beats.append(
            Export.objects.values_list("heartbeat_at", flat=True).get(pk=export.pk)
        ),
    )
    assert len(beats) >= 2 and None not in beats
    assert beats == sorted(beats) and beats[0] < beats[-1]


def test_the_cli_marks_a_run_it_processes_inline(settings):
    from io import StringIO

    from django.core.management import call_command

    project = ProjectFactory()
    SolutionFactory(problem__project=project)
    call_command(
        "autolabel", project=str(project.pk), sources="answer", inline=True, stdout=StringIO()
    )
    assert AutolabelRun.objects.get(project=project).inline
