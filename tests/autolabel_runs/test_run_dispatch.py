"""A run's creation and start do work that does not grow with the project
(autolabel.run_dispatch): the items written in a fixed number of statements, the chunks sent
a window at a time, each chunk sending the next; pause and cancel leave at most a window to
drain, and every item is still done exactly once."""

from collections import deque

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from autolabel import run_chunks, tasks
from autolabel.models import AutolabelItem, AutolabelRun, ItemStatus, RunStatus
from autolabel.registry import ENGINES
from autolabel.run_dispatch import run_dispatch_next, run_dispatch_start
from autolabel.services import autolabel_run_create, autolabel_run_pause, autolabel_run_resume
from labeling.models import Problem, Solution, Suggestion
from tests.autolabel_runs.test_run_progress import Verdicts, _project
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db


def _bare_project(n: int):
    """n solutions without steps, written in one statement (a run only lists them here)."""
    project = ProjectFactory()
    problem = Problem.objects.create(project=project, text="p", answer="1")
    Solution.objects.bulk_create(
        [Solution(project=project, problem=problem) for _ in range(n)], batch_size=5000
    )
    return project


def _create_statements(n: int) -> tuple[int, AutolabelRun]:
    project = _bare_project(n)
    with CaptureQueriesContext(connection) as queries:
        run = autolabel_run_create(project=project, sources=["symbolic"])
    return len(queries), run


def test_creation_writes_every_item_in_the_same_statements_at_any_size():
    few, small = _create_statements(3)
    many, large = _create_statements(4_500)  # more than two of the old 2,000-row batches
    assert few == many
    assert (small.total, large.total) == (3, 4_500)
    assert set(large.items.values_list("solution_id", flat=True)) == set(
        large.project.solutions.values_list("pk", flat=True)
    )
    assert set(large.items.values_list("status", "attempts", "suggestions", "error")) == {
        (ItemStatus.PENDING, 0, 0, "")
    }


def test_creation_keeps_the_filter():
    project = _bare_project(10)
    ids = sorted(project.solutions.values_list("pk", flat=True))
    Solution.objects.filter(pk__in=ids[:4]).update(submitted_count=1)
    run = autolabel_run_create(
        project=project,
        sources=["symbolic"],
        filter={"solution_ids": ids[:7], "only_unlabeled": True},
    )
    assert run.total == 3
    assert sorted(run.items.values_list("solution_id", flat=True)) == ids[4:7]


@pytest.fixture
def broker(monkeypatch):
    """The chunk messages sent, in a FIFO queue instead of the broker."""
    sent: deque = deque()
    monkeypatch.setattr(
        tasks.autolabel_chunk_task, "apply_async", lambda args, queue: sent.append(tuple(args))
    )
    return sent


def test_the_start_sends_a_window_and_each_chunk_the_next(monkeypatch, settings, broker):
    settings.AUTOLABEL_CHUNKS_IN_FLIGHT = 3
    engine = Verdicts(fail_on={"problem 0007"})
    monkeypatch.setitem(ENGINES, "symbolic", engine)
    project = _project(21)
    run = autolabel_run_create(project=project, sources=["symbolic"], params={"chunk_size": 2})
    assert tasks.autolabel_run_start_task(run.pk) == 3  # the old start sent all 11 chunks
    assert len(broker) == 3
    most = 0
    while broker:  # a worker taking the messages in order
        most = max(most, len(broker))
        run_id, ids = broker.popleft()
        tasks.autolabel_chunk_task(run_id, list(ids))
    assert most == 3  # never more than the window in the broker
    run.refresh_from_db()
    assert (run.status, run.total, run.done, run.failed) == (RunStatus.DONE, 21, 20, 1)
    assert engine.calls == 21  # every solution processed once
    assert run.suggestions_written == Suggestion.objects.count() == 20 * 4
    assert set(run.items.values_list("attempts", flat=True)) == {1}


def test_concurrent_chunks_take_disjoint_next_chunks(settings):
    settings.AUTOLABEL_CHUNKS_IN_FLIGHT = 1
    project = _bare_project(9)
    run = autolabel_run_create(project=project, sources=["symbolic"], params={"chunk_size": 2})
    first = run_dispatch_start(run=run, size=2)
    taken = [*first]
    while chunk := run_dispatch_next(run=run, size=2):
        taken.append(chunk)
    ids = sorted(project.solutions.values_list("pk", flat=True))
    assert [i for chunk in taken for i in chunk] == ids  # in order, none twice, none left
    assert [len(c) for c in taken] == [2, 2, 2, 2, 1]


def test_pause_leaves_at_most_a_window_and_resume_finishes_exactly(monkeypatch, settings, broker):
    settings.AUTOLABEL_CHUNKS_IN_FLIGHT = 2
    monkeypatch.setattr(run_chunks, "STOP_CHECK_S", 0.0)
    engine = Verdicts()
    monkeypatch.setitem(ENGINES, "symbolic", engine)
    project = _project(40)
    run = autolabel_run_create(project=project, sources=["symbolic"], params={"chunk_size": 3})
    tasks.autolabel_run_start_task(run.pk)
    for _ in range(3):
        tasks.autolabel_chunk_task(*broker.popleft())
    autolabel_run_pause(run=AutolabelRun.objects.get(pk=run.pk))
    assert len(broker) == 2  # what a pause leaves to drain: the window, not the run
    while broker:
        assert tasks.autolabel_chunk_task(*broker.popleft()) == 0  # and none sends a next
    assert engine.calls == 9
    assert run.items.filter(status=ItemStatus.PENDING).count() == 31

    autolabel_run_resume(run=run)
    assert tasks.autolabel_run_start_task(run.pk) == 2
    while broker:
        tasks.autolabel_chunk_task(*broker.popleft())
    run.refresh_from_db()
    assert (run.status, run.done, run.failed, engine.calls) == (RunStatus.DONE, 40, 0, 40)
    assert not AutolabelItem.objects.filter(run=run).exclude(status=ItemStatus.DONE).exists()


def test_a_lost_window_is_sent_again_by_a_new_start(monkeypatch, settings, broker):
    """A Redis that lost the run's messages: the recovery sweep sends the start again, which
    takes the pending items from the first one (the cursor had passed them)."""
    settings.AUTOLABEL_CHUNKS_IN_FLIGHT = 2
    monkeypatch.setitem(ENGINES, "symbolic", Verdicts())
    run = autolabel_run_create(project=_project(10), sources=["symbolic"], params={"chunk_size": 2})
    tasks.autolabel_run_start_task(run.pk)
    tasks.autolabel_chunk_task(*broker.popleft())
    broker.clear()  # the broker restarted empty: two chunks lost
    assert tasks.autolabel_run_start_task(run.pk) == 2
    while broker:
        tasks.autolabel_chunk_task(*broker.popleft())
    run.refresh_from_db()
    assert (run.status, run.done) == (RunStatus.DONE, 10)


def _post_statements(n: int) -> tuple[int, dict]:
    from rest_framework.test import APIClient

    from tests.factories import MembershipFactory, UserFactory

    project = _bare_project(n)
    admin = UserFactory()
    MembershipFactory(project=project, user=admin, role="admin")
    client = APIClient()
    client.force_authenticate(admin)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            f"/api/projects/{project.pk}/autolabel-runs/", {"sources": ["symbolic"]}, format="json"
        )
    assert response.status_code == 202, response.content
    return len(queries), response.json()


def test_the_create_request_writes_no_item_and_the_start_writes_them_all(broker):
    few, _ = _post_statements(3)
    many, created = _post_statements(4_500)
    assert few == many  # the request's work does not grow with the project
    assert (created["status"], created["prepared"], created["total"], created["progress"]) == (
        "pending",
        False,
        0,
        0.0,  # not "done": nothing is listed yet
    )
    run = AutolabelRun.objects.get(pk=created["id"])
    assert not run.items.exists()
    assert tasks.autolabel_run_start_task(run.pk) == 32
    run.refresh_from_db()
    assert (run.prepared, run.total, run.status) == (True, 4_500, RunStatus.RUNNING)
    assert run.items.count() == 4_500
    assert tasks.autolabel_run_start_task(run.pk) == 32  # sent again: the items stay as they are
    assert run.items.count() == 4_500


def test_a_run_paused_or_cancelled_before_its_start_is_prepared_by_its_resume(broker):
    from autolabel.services import autolabel_run_cancel

    project = _bare_project(5)
    run = autolabel_run_create(project=project, sources=["symbolic"], prepare_later=True)
    autolabel_run_pause(run=run)
    assert tasks.autolabel_run_start_task(run.pk) == 0
    assert not AutolabelRun.objects.get(pk=run.pk).prepared
    autolabel_run_resume(run=run)
    assert tasks.autolabel_run_start_task(run.pk) == 1
    assert AutolabelRun.objects.get(pk=run.pk).total == 5

    other = autolabel_run_create(project=_bare_project(2), sources=["symbolic"], prepare_later=True)
    autolabel_run_cancel(run=other)
    assert tasks.autolabel_run_start_task(other.pk) == 0
    assert not other.items.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_pause_goes_through_while_the_start_writes_a_runs_items(monkeypatch):
    """At a million items the write takes seconds: a pause (or cancel) meanwhile must not
    wait for it, and the status it set stays."""
    import threading

    from django.db import connections, transaction

    from autolabel import services

    run = autolabel_run_create(project=_bare_project(50), sources=["symbolic"], prepare_later=True)
    written, release = threading.Event(), threading.Event()
    original = services.run_items_write

    def write_then_hold(**kwargs):
        count = original(**kwargs)
        written.set()
        release.wait(10)  # the start's transaction stays open, as during a long write
        return count

    monkeypatch.setattr(services, "run_items_write", write_then_hold)
    errors: list[BaseException] = []

    def start() -> None:
        try:
            services.autolabel_run_prepare(run=AutolabelRun.objects.get(pk=run.pk))
        except BaseException as exc:  # noqa: BLE001 - asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=start)
    thread.start()
    try:
        assert written.wait(10)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '1s'")
            autolabel_run_pause(run=run)  # the old FOR UPDATE of the start: lock timeout
    finally:
        release.set()
        thread.join(20)
    assert not errors, errors
    run.refresh_from_db()
    assert (run.status, run.prepared, run.total) == (RunStatus.PAUSED, True, 50)
    assert run.items.count() == 50
