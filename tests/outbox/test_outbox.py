"""The transactional outbox (labeling.services.jobs.outbox) and the idempotency key of job creation.

The broker here is the test settings' in-memory one, or a Redis URL nobody listens on for a
broker that is down: the sends go through kombu for real, nothing is patched but the broker
address. The end-to-end proof with a real Redis stopped under a real gunicorn is
tests/faults/test_redis_down.py.
"""

import threading
from datetime import timedelta

import pytest
from django.db import DatabaseError, connection
from django.utils import timezone
from rest_framework.test import APIClient

from annotate.celery import app
from annotate.inflight import InFlight
from autolabel.models import AutolabelRun, RunStatus
from autolabel.recovery import lost_jobs
from autolabel.tasks import autolabel_run_start_task
from bench.load.procs import free_port
from labeling.models import Export, OutboxMessage, ProjectMembership
from labeling.services.exports.snapshots import export_create
from labeling.services.jobs import outbox
from labeling.services.jobs.outbox import outbox_drain, outbox_job_create
from tests.factories import MembershipFactory, ProjectFactory

pytestmark = pytest.mark.django_db
EXPORT_TASK = "labeling.tasks.export_build_task"


@pytest.fixture
def broker_down():
    """The broker address points at a port nobody listens on, as when Redis is stopped."""
    before = app.conf.broker_url
    app.conf.broker_url = f"redis://127.0.0.1:{free_port()}/0"
    yield
    app.conf.broker_url = before


def _queued(queue: str) -> list[tuple[str, list]]:
    """Take every message waiting in an in-memory broker queue: (task name, args)."""
    out = []
    with app.connection_for_write() as conn:
        simple = conn.SimpleQueue(queue)
        while True:
            try:
                message = simple.get(block=False)
            except simple.Empty:
                break
            out.append((message.headers["task"], message.decode()[0]))
            message.ack()
        simple.close()
    return out


@pytest.fixture
def reviewer():
    membership = MembershipFactory(role="reviewer")
    client = APIClient()
    client.force_authenticate(membership.user)
    client.project = membership.project
    _queued("exports")  # nothing left over from another test
    return client


def _post_export(client, **headers):
    return client.post(
        f"/api/projects/{client.project.pk}/exports/", {"format": "trl"}, format="json", **headers
    )


def test_the_job_and_its_message_commit_together_or_not_at_all(monkeypatch):
    project = ProjectFactory()

    def refuse(**kwargs):
        raise DatabaseError("the outbox insert failed")

    monkeypatch.setattr(OutboxMessage.objects, "create", refuse)
    with pytest.raises(DatabaseError):
        outbox_job_create(
            task=EXPORT_TASK,
            create=lambda: export_create(project=project, created_by=None, format="trl"),
            fetch=lambda pk: None,
            created_by=None,
        )
    assert not Export.objects.exists()


def test_created_job_is_sent_after_commit(reviewer, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = _post_export(reviewer)
    assert response.status_code == 202, response.content
    job = response.json()["id"]
    message = OutboxMessage.objects.get()
    assert (message.task, message.args, message.attempts) == (EXPORT_TASK, [job], 1)
    assert message.sent_at is not None
    assert _queued("exports") == [(EXPORT_TASK, [job])]


def test_broker_down_answers_202_leaves_the_message_unsent_and_the_sweep_sends_it_once(
    reviewer, broker_down, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = _post_export(reviewer)
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "pending"
    message = OutboxMessage.objects.get()
    assert message.sent_at is None and message.attempts == 1
    assert "OperationalError" in message.last_error
    assert outbox_drain() == 0  # still down: still unsent
    assert OutboxMessage.objects.get().attempts == 2

    app.conf.broker_url = "memory://"  # the broker is back
    assert outbox_drain() == 1
    assert outbox_drain() == 0  # sent once
    assert _queued("exports") == [(EXPORT_TASK, [response.json()["id"]])]
    assert OutboxMessage.objects.get().sent_at is not None


def test_a_retry_with_the_same_key_answers_the_same_job(reviewer):
    first = _post_export(reviewer, HTTP_IDEMPOTENCY_KEY="k-1")
    again = _post_export(reviewer, HTTP_IDEMPOTENCY_KEY="k-1")
    other = _post_export(reviewer, HTTP_IDEMPOTENCY_KEY="k-2")
    assert first.status_code == again.status_code == other.status_code == 202
    assert first.json()["id"] == again.json()["id"] != other.json()["id"]
    assert Export.objects.count() == OutboxMessage.objects.count() == 2


def test_request_id_in_the_body_is_the_same_key(reviewer):
    url = f"/api/projects/{reviewer.project.pk}/exports/"
    body = {"format": "trl", "request_id": "5f0c1a52-7d55-4c7e-9a77-3e6d2c1f9a10"}
    first = reviewer.post(url, body, format="json")
    again = reviewer.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=body["request_id"])
    assert first.json()["id"] == again.json()["id"]
    assert Export.objects.count() == 1


def test_the_key_is_per_user(reviewer):
    _post_export(reviewer, HTTP_IDEMPOTENCY_KEY="shared")
    colleague = APIClient()
    colleague.force_authenticate(MembershipFactory(project=reviewer.project, role="admin").user)
    colleague.project = reviewer.project
    _post_export(colleague, HTTP_IDEMPOTENCY_KEY="shared")
    assert Export.objects.count() == 2


def test_a_key_used_for_another_kind_of_job_is_a_409(reviewer):
    project = reviewer.project
    ProjectMembership.objects.filter(project=project).update(role="admin")
    _post_export(reviewer, HTTP_IDEMPOTENCY_KEY="k")
    response = reviewer.post(
        f"/api/projects/{project.pk}/autolabel-runs/",
        {"sources": ["answer"]},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    assert response.status_code == 409, response.content
    assert response.json()["error"]["code"] == "conflict"
    assert not AutolabelRun.objects.exists()


@pytest.mark.parametrize("key", ["", "x" * 101, "has space", "caf\u00e9"])
def test_a_malformed_key_is_a_400(reviewer, key):
    response = _post_export(reviewer, HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "validation_error"
    assert not Export.objects.exists()


def test_header_and_request_id_that_differ_are_a_400(reviewer):
    url = f"/api/projects/{reviewer.project.pk}/exports/"
    body = {"format": "trl", "request_id": "5f0c1a52-7d55-4c7e-9a77-3e6d2c1f9a10"}
    response = reviewer.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="other")
    assert response.status_code == 400
    assert not Export.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_with_one_key_make_one_job():
    membership = MembershipFactory(role="reviewer")
    barrier = threading.Barrier(4)
    answers: list[int] = []

    def post() -> None:
        try:
            client = APIClient()
            client.force_authenticate(membership.user)
            client.project = membership.project
            barrier.wait()
            response = _post_export(client, HTTP_IDEMPOTENCY_KEY="race")
            answers.append(response.status_code if response.status_code != 202 else 0)
            answers.append(response.json().get("id", -1))
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    codes, ids = answers[0::2], set(answers[1::2])
    assert codes == [0, 0, 0, 0], answers
    assert len(ids) == 1 and Export.objects.count() == 1 and OutboxMessage.objects.count() == 1


def test_the_recovery_sweep_leaves_a_job_with_an_unsent_message_to_the_outbox(settings):
    settings.RECOVERY_STALL_S = 60
    project = ProjectFactory()
    old = timezone.now() - timedelta(seconds=600)
    waiting = export_create(project=project, created_by=None, format="trl")
    lost = export_create(project=project, created_by=None, format="trl")
    Export.objects.update(created_at=old)
    OutboxMessage.objects.create(task=EXPORT_TASK, args=[waiting.pk])
    OutboxMessage.objects.create(task=EXPORT_TASK, args=[lost.pk], sent_at=old)
    found = lost_jobs(held=InFlight(held=frozenset(), workers=1), depth=lambda queue: 0)
    assert [(kind.name, job.pk) for kind, job in found] == [("export", lost.pk)]


@pytest.mark.parametrize("status", [RunStatus.DONE, RunStatus.FAILED])
def test_a_duplicate_start_of_a_finished_run_does_nothing(status, monkeypatch):
    run = AutolabelRun.objects.create(project=ProjectFactory(), sources=["answer"], status=status)
    sent = []
    monkeypatch.setattr("autolabel.tasks.autolabel_chunk_task.apply_async", sent.append)
    assert autolabel_run_start_task.run(run.pk) == 0
    run.refresh_from_db()
    assert run.status == status and sent == []


def test_drain_skips_a_message_being_sent_elsewhere(monkeypatch):
    """The on-commit send holds the row: the sweep skips it rather than sending it twice."""
    message = OutboxMessage.objects.create(task=EXPORT_TASK, args=[1])
    published = []
    monkeypatch.setattr(outbox, "_publish", lambda messages: published.extend(messages))
    monkeypatch.setattr(OutboxMessage.objects, "select_for_update", _skip_locked_sees([message.pk]))
    assert outbox_drain() == 0 and published == []


def _skip_locked_sees(locked: list[int]):
    manager = OutboxMessage._default_manager.__class__

    def select_for_update(**kwargs):
        assert kwargs == {"skip_locked": True}
        return manager.select_for_update(OutboxMessage.objects, **kwargs).exclude(pk__in=locked)

    return select_for_update


def test_a_metrics_refresh_asked_while_the_broker_is_down_waits_in_the_outbox(
    broker_down, django_capture_on_commit_callbacks
):
    from labeling.services.projects.metrics import REFRESH_TASK, metrics_request_refresh

    project = ProjectFactory()
    with django_capture_on_commit_callbacks(execute=True):
        assert metrics_request_refresh(project=project) is True
    message = OutboxMessage.objects.get()
    assert (message.task, message.args, message.sent_at) == (REFRESH_TASK, [project.pk], None)


def test_the_drain_task_forgets_messages_sent_long_ago_and_keeps_the_rest(settings, monkeypatch):
    from labeling.tasks import outbox_drain_task

    settings.OUTBOX_KEEP_DAYS = 7
    monkeypatch.setattr(outbox, "_publish", lambda messages: None)
    now = timezone.now()
    old = OutboxMessage.objects.create(task=EXPORT_TASK, args=[1], sent_at=now - timedelta(8))
    recent = OutboxMessage.objects.create(task=EXPORT_TASK, args=[2], sent_at=now - timedelta(6))
    unsent = OutboxMessage.objects.create(task=EXPORT_TASK, args=[3])
    assert outbox_drain_task.run() == 1  # the unsent one
    assert set(OutboxMessage.objects.values_list("pk", flat=True)) == {recent.pk, unsent.pk}
    assert not OutboxMessage.objects.filter(pk=old.pk).exists()
    assert OutboxMessage.objects.get(pk=unsent.pk).sent_at is not None


@pytest.fixture
def broker_frozen():
    """A 'Redis' that accepts connections and never answers (a SIGSTOPped server: the kernel
    still completes the handshake into its backlog)."""
    import socket

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    before = app.conf.broker_url
    app.conf.broker_url = f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    yield
    app.conf.broker_url = before
    server.close()


@pytest.mark.django_db(transaction=True)
def test_a_frozen_broker_does_not_hold_the_request(
    reviewer, broker_frozen, django_capture_on_commit_callbacks
):
    """The send gives up after its socket timeouts and the message waits for the sweep."""
    import threading

    done: list[int] = []

    def create() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            done.append(_post_export(reviewer).status_code)

    worker = threading.Thread(target=create)
    worker.start()
    worker.join(timeout=60)  # without socket timeouts the send blocks for good
    assert done == [202]
    message = OutboxMessage.objects.get()
    assert message.sent_at is None and message.attempts == 1
