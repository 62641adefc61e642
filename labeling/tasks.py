"""Celery tasks of the labeling app: thin wrappers that take ids and call a service."""

from celery import shared_task

from labeling.models import ImportJob
from labeling.services.imports import import_job_run


@shared_task(acks_late=True, reject_on_worker_lost=True)
def import_job_run_task(job_id: int) -> str:
    job = import_job_run(job=ImportJob.objects.get(pk=job_id))
    return job.status


# Routed to the `exports` queue by CELERY_TASK_ROUTES (annotate/settings/base.py): the task-level
# `queue` attribute is deprecated in Celery 5 and goes away in 6.
@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=6 * 3600,
    time_limit=6 * 3600 + 300,
)
def export_build_task(export_id: int) -> str:
    """Build an export; a redelivered task rebuilds a running one, leaves a done one alone."""
    from labeling.models import Export
    from labeling.services.exports.snapshots import export_build

    export = Export.objects.select_related("project", "created_by").filter(pk=export_id).first()
    if export is None:  # deleted before a worker got to it
        return "deleted"
    return export_build(export=export).status


@shared_task(acks_late=True, reject_on_worker_lost=True, soft_time_limit=3600, time_limit=3700)
def hub_push_task(push_id: int) -> str:
    """Push an export to the Hub; a redelivered task leaves a done push alone."""
    from labeling.models import HubPush
    from labeling.services.exports.hub import hub_push_execute

    push = HubPush.objects.select_related("export__project").filter(pk=push_id).first()
    if push is None:
        return "deleted"
    return hub_push_execute(push=push).status


@shared_task(ignore_result=True, soft_time_limit=300, time_limit=330)
def export_leftovers_remove_task() -> dict[str, int]:
    """Beat, on an exports worker: remove what killed or failed builds left on its disk and in
    the storage (labeling.services.exports.files)."""
    from labeling.services.exports.files import export_leftovers_remove

    return export_leftovers_remove()


@shared_task(acks_late=True, reject_on_worker_lost=True, soft_time_limit=1800, time_limit=1900)
def project_metrics_refresh_task(project_id: int) -> str:
    """Recompute a project's metrics snapshot (idempotent: a redelivery recomputes it)."""
    from labeling.models import Project
    from labeling.services.projects.metrics import metrics_refresh

    project = Project.objects.filter(pk=project_id).first()
    if project is None:
        return "deleted"
    return metrics_refresh(project=project).computed_at.isoformat()


@shared_task(acks_late=True, reject_on_worker_lost=True, soft_time_limit=1800, time_limit=1900)
def source_counts_refresh_task(project_id: int) -> str:
    """Count a large project's problem sources again (idempotent: a redelivery counts again)."""
    from labeling.models import Project
    from labeling.services.queue.source_counts import source_counts_refresh

    project = Project.objects.filter(pk=project_id).first()
    if project is None:
        return "deleted"
    return source_counts_refresh(project=project).computed_at.isoformat()


@shared_task(acks_late=True, reject_on_worker_lost=True, soft_time_limit=3300, time_limit=3500)
def project_purge_task(project_id: int) -> dict[str, int]:
    """Delete a project marked deleted, in batches (idempotent: a redelivery, or the recovery
    sweep's resend after a killed worker, goes on where the last run stopped)."""
    from labeling.services.projects.delete import project_purge

    return project_purge(project_id=project_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, soft_time_limit=3300, time_limit=3500)
def project_queue_refresh_task(project_id: int) -> int:
    """Bring a project's claim-pool flags to its changed overlap, range by range (idempotent:
    a redelivery walks again)."""
    from labeling.services.queue.pool import project_queue_refresh

    return project_queue_refresh(project_id=project_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, soft_time_limit=3300, time_limit=3500)
def problem_domains_clear_task(project_id: int) -> int:
    """Blank the problems that name their one-domain project's domain, batch by batch, after
    it left many-domains (idempotent: a redelivery finds fewer or none)."""
    from labeling.services.projects.domain_change import problem_domains_clear

    return problem_domains_clear(project_id=project_id)


@shared_task(ignore_result=True)
def outbox_drain_task() -> int:
    """Beat, every OUTBOX_SWEEP_S: send the job messages left unsent while the broker was down,
    and forget those sent over OUTBOX_KEEP_DAYS ago."""
    from django.conf import settings

    from labeling.services.jobs.outbox import outbox_drain, outbox_prune

    outbox_prune(keep_days=settings.OUTBOX_KEEP_DAYS)
    return outbox_drain()


@shared_task(ignore_result=True)
def tokens_prune_task() -> int:
    """Beat, daily: forget API tokens revoked or expired over TOKENS_KEEP_DEAD_DAYS ago."""
    from django.conf import settings

    from labeling.services.people.tokens import tokens_prune

    return tokens_prune(keep_days=settings.TOKENS_KEEP_DEAD_DAYS)


@shared_task(ignore_result=True)
def metrics_changes_prune_task() -> int:
    """Beat, hourly: drop the metrics change log of projects past METRICS_PARTS_MAX_SOLUTIONS
    unrefreshed bumps (their next refresh rebuilds; services/projects/metrics_parts.py)."""
    from labeling.services.projects.metrics_parts import metrics_changes_prune

    return metrics_changes_prune()


@shared_task(ignore_result=True, acks_late=True, soft_time_limit=120, time_limit=150)
def webhook_deliver_task(delivery_id: int) -> None:
    """Make a webhook delivery's due attempt; a failure with attempts left comes back after its
    backoff (a lost message is resent by webhook_sweep_task)."""
    from labeling.services.webhooks.delivery import webhook_delivery_attempt

    retry_in = webhook_delivery_attempt(delivery_id=delivery_id)
    if retry_in is not None:
        webhook_deliver_task.apply_async(args=[delivery_id], countdown=retry_in)


@shared_task(ignore_result=True)
def webhook_sweep_task() -> int:
    """Beat, every WEBHOOK_SWEEP_S: resend overdue webhook deliveries, forget old ones, and
    heal the projects' subscribed-event sets."""
    from django.conf import settings

    from labeling.services.webhooks.delivery import (
        webhook_deliveries_due,
        webhook_deliveries_prune,
        webhook_events_heal,
    )

    webhook_deliveries_prune(keep_days=settings.WEBHOOK_DELIVERY_KEEP_DAYS)
    webhook_events_heal()
    due = webhook_deliveries_due(grace_s=settings.WEBHOOK_SWEEP_S)
    for delivery_id in due:
        webhook_deliver_task.delay(delivery_id)
    return len(due)
