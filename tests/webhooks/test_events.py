"""Each event fires from the real service call that makes it, and reaches a real receiver."""

import json

import pytest
from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from autolabel.models import AutolabelItem, AutolabelRun, ItemStatus, RunStatus
from autolabel.services import autolabel_run_refresh
from labeling.models import ImportJob, WebhookDelivery
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.imports import import_job_run
from labeling.services.labeling.annotations import annotation_submit
from labeling.services.queue.claim import task_claim_next
from labeling.services.review.actions import review_accept
from labeling.services.webhooks.events import (
    ANNOTATION_SUBMITTED,
    AUTOLABEL_RUN_FINISHED,
    EXPORT_READY,
    IMPORT_FINISHED,
    REVIEW_RESOLVED,
    webhook_event_emit,
)
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory
from tests.review.test_review_queue import submitted

from .conftest import deliver_pending

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


def _received(receiver) -> list[dict]:
    deliveries = deliver_pending()
    assert all(d.status == "delivered" for d in deliveries), [d.error for d in deliveries]
    return receiver.verified()


def _job(project, content: bytes) -> ImportJob:
    job = ImportJob(project=project, filename="up.jsonl", bytes_total=len(content))
    job.file.save("up.jsonl", ContentFile(content), save=False)
    job.save()
    return job


def test_import_finished_ok_and_failed(subscribe, receiver):
    project = ProjectFactory()
    subscribe(project, [IMPORT_FINISHED])
    rows = [{"problem": "1+1?", "steps": ["1+1=2", "So 2."]}]
    good = import_job_run(job=_job(project, "".join(json.dumps(r) + "\n" for r in rows).encode()))
    bad = import_job_run(job=_job(project, b'{"problem": "p", "steps": ["a"]}\n{not json\n'))
    ok_event, failed_event = _received(receiver)
    assert ok_event["type"] == failed_event["type"] == "import.finished"
    assert ok_event["data"]["import_id"] == good.pk and ok_event["data"]["status"] == "done"
    assert ok_event["data"]["result"]["solutions_created"] == 1
    assert ok_event["data"]["url"] == f"https://steplab.example.org/api/imports/{good.pk}/"
    assert failed_event["data"]["import_id"] == bad.pk
    assert failed_event["data"]["status"] == "failed"
    assert failed_event["data"]["error"]["line"] == 2


def test_export_ready_carries_its_download_url(subscribe, receiver):
    project = ProjectFactory()
    SolutionFactory(problem__project=project, steps=3)
    subscribe(project, [EXPORT_READY])
    export = export_build(export=export_create(project=project, created_by=None, format="trl"))
    (event,) = _received(receiver)
    assert event["type"] == "export.ready"
    assert event["data"]["export_id"] == export.pk and event["data"]["status"] == "done"
    assert event["data"]["download_url"] == (
        f"https://steplab.example.org/api/exports/{export.pk}/download/"
    )
    assert event["data"]["sha256"] == export.sha256 and event["data"]["format"] == "trl"


def test_autolabel_run_finished_fires_once(subscribe, receiver):
    project = ProjectFactory()
    solution = SolutionFactory(problem__project=project, steps=2)
    subscribe(project, [AUTOLABEL_RUN_FINISHED])
    run = AutolabelRun.objects.create(
        project=project, sources=["answer"], status=RunStatus.RUNNING, total=1
    )
    item = AutolabelItem.objects.create(run=run, solution=solution)
    autolabel_run_refresh(run=run)  # still pending: no event
    assert not WebhookDelivery.objects.exists()
    # What a chunk's transaction does: the item marked, the run's counters added to.
    AutolabelItem.objects.filter(pk=item.pk).update(status=ItemStatus.DONE, suggestions=2)
    AutolabelRun.objects.filter(pk=run.pk).update(done=1, suggestions_written=2)
    autolabel_run_refresh(run=run)
    autolabel_run_refresh(run=run)  # a concurrent chunk's refresh: already finished
    (event,) = _received(receiver)
    assert event["type"] == "autolabel_run.finished"
    assert event["data"] == {
        "project_id": project.pk,
        "run_id": run.pk,
        "status": "done",
        "done": 1,
        "failed": 0,
        "suggestions_written": 2,
        "finished_at": event["data"]["finished_at"],
    }


def _claimed(project):
    SolutionFactory(problem__project=project, steps=3)
    user = UserFactory(username="ann")
    MembershipFactory(project=project, user=user)
    return task_claim_next(project=project, user=user).annotation, user


def _submit(annotation, user):
    steps = annotation.solution.steps.order_by("index")
    return annotation_submit(
        annotation=annotation,
        user=user,
        version=annotation.version,
        labels=[{"step_id": s.pk, "rating": 1} for s in steps],
    )


def test_annotation_submitted(subscribe, receiver):
    project = ProjectFactory()
    subscribe(project, [ANNOTATION_SUBMITTED])
    annotation, user = _claimed(project)
    _submit(annotation, user)
    (event,) = _received(receiver)
    assert event["type"] == "annotation.submitted"
    assert event["data"]["annotation_id"] == annotation.pk
    assert event["data"]["solution_id"] == annotation.solution_id
    assert event["data"]["annotator"] == {"id": user.pk, "username": "ann"}
    assert event["data"]["finish_reason"] == "solution"


@pytest.mark.parametrize("subscribed", [[], [EXPORT_READY]])
def test_a_submit_nobody_listens_to_costs_no_webhook_query(subscribe, subscribed):
    project = ProjectFactory()
    if subscribed:
        subscribe(project, subscribed)
    annotation, user = _claimed(project)
    with CaptureQueriesContext(connection) as queries:
        _submit(annotation, user)
    assert not [q["sql"] for q in queries if "labeling_webhook" in q["sql"]]
    assert not WebhookDelivery.objects.exists()


def test_review_resolved(subscribe, receiver):
    project = ProjectFactory()
    solution = SolutionFactory(problem__project=project, steps=2)
    subscribe(project, [REVIEW_RESOLVED])
    reviewer = UserFactory(username="rev")
    annotation = submitted(solution, UserFactory(username="a1"), [1, -1])
    resolution = review_accept(annotation=annotation, reviewer=reviewer)
    (event,) = _received(receiver)
    assert event["type"] == "review.resolved"
    assert event["data"]["resolution_id"] == resolution.pk
    assert event["data"]["solution_id"] == solution.pk
    assert event["data"]["first_error_index"] == 1
    assert event["data"]["resolved_by"] == {"id": reviewer.pk, "username": "rev"}


def test_an_event_whose_transaction_rolls_back_is_never_sent(subscribe, receiver):
    project = ProjectFactory()
    subscribe(project, [EXPORT_READY])
    with pytest.raises(RuntimeError), transaction.atomic():
        webhook_event_emit(project=project, event_type=EXPORT_READY, data={})
        raise RuntimeError("the export's write failed")
    assert not WebhookDelivery.objects.exists()
    assert deliver_pending() == [] and not receiver.received


def test_only_subscribed_active_endpoints_get_an_event(subscribe, receiver):
    project = ProjectFactory()
    wanted = subscribe(project, [EXPORT_READY])
    subscribe(project, [IMPORT_FINISHED])
    subscribe(project, [EXPORT_READY], active=False)
    assert webhook_event_emit(project=project, event_type=EXPORT_READY, data={}) == 1
    assert list(WebhookDelivery.objects.values_list("endpoint_id", flat=True)) == [wanted.pk]
    other = ProjectFactory()
    assert webhook_event_emit(project=other.pk, event_type=EXPORT_READY, data={}) == 0
