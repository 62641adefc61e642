"""Celery tasks of the labeling app: thin wrappers that take ids and call a service."""

from celery import shared_task

from annotate.queues import Queue
from labeling.models import ImportJob
from labeling.services.imports import import_job_run


@shared_task(queue=Queue.DEFAULT, acks_late=True, reject_on_worker_lost=True)
def import_job_run_task(job_id: int) -> str:
    job = import_job_run(job=ImportJob.objects.get(pk=job_id))
    return job.status
