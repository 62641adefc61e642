"""The events a project's webhook endpoints can receive, and enqueueing them.

`webhook_event_emit` runs in the transaction that made the event: it writes one
WebhookDelivery per subscribed active endpoint plus an outbox message that starts its delivery
after the commit (labeling.services.jobs.outbox), so an event is sent if and only if what it reports
committed, and survives a broker outage. Whether anyone listens is read from
`Project.webhook_events` (kept by labeling.services.webhooks.endpoints), which the callers have
loaded already: an event nobody subscribed to costs no query.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.utils import timezone

from labeling.models import DeliveryStatus, Project, WebhookDelivery, WebhookEndpoint
from labeling.pg.key_share import key_share
from labeling.services.jobs.outbox import outbox_add

IMPORT_FINISHED = "import.finished"
AUTOLABEL_RUN_FINISHED = "autolabel_run.finished"
EXPORT_READY = "export.ready"
EXPORT_FAILED = "export.failed"
ANNOTATION_SUBMITTED = "annotation.submitted"
REVIEW_RESOLVED = "review.resolved"
# Sent by "Send test event" only; nobody subscribes to it.
TEST_EVENT = "webhook.test"

EVENTS: dict[str, str] = {
    IMPORT_FINISHED: "An import job finished; data.status is done or failed.",
    AUTOLABEL_RUN_FINISHED: "An auto-label run finished (done or failed).",
    EXPORT_READY: "An export was built; data.download_url fetches its file.",
    EXPORT_FAILED: "An export build failed; data.error says why.",
    ANNOTATION_SUBMITTED: "An annotator submitted an annotation.",
    REVIEW_RESOLVED: "A solution got a resolved label (review, adjudication or consensus).",
}
DELIVER_TASK = "labeling.tasks.webhook_deliver_task"


def _iso(moment) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def public_url(path: str) -> str:
    """`path` on this server: absolute when PUBLIC_URL is set, else the path alone."""
    base = getattr(settings, "PUBLIC_URL", "") or ""
    return f"{base.rstrip('/')}{path}"


def webhook_delivery_add(
    *, endpoint: WebhookEndpoint, event_type: str, data: dict
) -> WebhookDelivery:
    """One delivery of one event to one endpoint, sent after the caller's commit."""
    now = timezone.now()
    delivery = WebhookDelivery.objects.create(
        endpoint=endpoint,
        event_type=event_type,
        message_id=f"msg_{uuid.uuid4().hex}",
        payload={"type": event_type, "timestamp": _iso(now), "data": data},
        status=DeliveryStatus.PENDING,
        next_attempt_at=now,
    )
    outbox_add(task=DELIVER_TASK, args=[delivery.pk])
    return delivery


def webhook_listens(project: Project, event_type: str) -> bool:
    """Whether some active endpoint of the (loaded) project receives `event_type`; no query."""
    return event_type in (project.webhook_events or ())


def webhook_event_emit(*, project: Project | int, event_type: str, data: dict[str, Any]) -> int:
    """Enqueue `event_type` for every active endpoint of `project` subscribed to it; returns
    how many deliveries were made. A Project instance costs no query when nobody listens."""
    if isinstance(project, Project):
        project_id, listened = project.pk, project.webhook_events
    else:
        project_id = project
        listened = (
            Project.objects.filter(pk=project_id).values_list("webhook_events", flat=True).first()
        )
    if not listened or event_type not in listened:
        return 0
    endpoints = [e for e in _active_endpoints_held(project_id) if event_type in e.events]
    data = {"project_id": project_id, **data}
    for endpoint in endpoints:
        webhook_delivery_add(endpoint=endpoint, event_type=event_type, data=data)
    return len(endpoints)


def _active_endpoints_held(project_id: int) -> list[WebhookEndpoint]:
    """The project's active endpoints, each row share-locked (FOR KEY SHARE) until the caller's
    commit: an endpoint deleted at this moment (`webhook_endpoint_delete` locks it first) is
    either deleted after this transaction, with the deliveries it made, or skipped here; never
    deleted under a delivery, which failed the event's own transaction (a submit) at its
    commit on the deferred foreign key. The lock is the weakest: emits do not wait for each
    other, nor for an endpoint's edits."""
    return key_share(WebhookEndpoint.objects.filter(project_id=project_id, active=True))


# What each event says: built from the row that made it.


def import_finished_data(job) -> dict[str, Any]:
    return {
        "import_id": job.pk,
        "status": job.status,
        "filename": job.filename,
        "result": job.result or None,
        "error": job.error or None,
        "finished_at": _iso(job.finished_at),
        "url": public_url(f"/api/imports/{job.pk}/"),
    }


def autolabel_run_finished_data(run) -> dict[str, Any]:
    return {
        "run_id": run.pk,
        "status": run.status,
        "done": run.done,
        "failed": run.failed,
        "suggestions_written": run.suggestions_written,
        "finished_at": _iso(run.finished_at),
    }


def export_data(export) -> dict[str, Any]:
    data: dict[str, Any] = {
        "export_id": export.pk,
        "status": export.status,
        "format": export.format,
        "finished_at": _iso(export.finished_at),
    }
    if export.status == "done":
        data.update(
            download_url=public_url(f"/api/exports/{export.pk}/download/"),
            row_count=export.row_count,
            size_bytes=export.size_bytes,
            sha256=export.sha256,
        )
    else:
        data["error"] = (export.error or {}).get("message", "")
    return data


def annotation_submitted_data(annotation, user, *, finish_reason: str, submitted_at) -> dict:
    return {
        "annotation_id": annotation.pk,
        "solution_id": annotation.solution_id,
        "annotator": {"id": user.pk, "username": user.username},
        "finish_reason": finish_reason,
        "submitted_at": _iso(submitted_at),
    }


def annotation_submitted_emit(
    project: Project, annotation, user, *, finish_reason: str, submitted_at
) -> None:
    """The submit's event, for the endpoints that listen; no query when none does."""
    if webhook_listens(project, ANNOTATION_SUBMITTED):
        webhook_event_emit(
            project=project,
            event_type=ANNOTATION_SUBMITTED,
            data=annotation_submitted_data(
                annotation, user, finish_reason=finish_reason, submitted_at=submitted_at
            ),
        )


def review_resolved_data(resolution) -> dict[str, Any]:
    user = resolution.resolved_by
    return {
        "resolution_id": resolution.pk,
        "solution_id": resolution.solution_id,
        "provenance": resolution.provenance,
        "first_error_index": resolution.first_error_index,
        "resolved_by": {"id": user.pk, "username": user.username} if user else None,
    }
