"""Import jobs: an uploaded file imported by a Celery task in two passes (validate, then
write), with its status, progress, result or error recorded on the ImportJob row."""

import logging
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.utils import timezone

from labeling.accounts.operators import job_actor
from labeling.errors import DomainError
from labeling.hub.pull import HubSource, hub_split_write
from labeling.importers import ImportFileError
from labeling.models import ImportJob, ImportStatus
from labeling.services.webhooks.events import (
    IMPORT_FINISHED,
    import_finished_data,
    webhook_event_emit,
)
from labeling.steps.splitting import StepRule

from .parsing import PathOrFile, Progress, import_file_validate
from .pipeline import import_file

logger = logging.getLogger(__name__)

# What of ImportJob.hub names the split (the rest is what the fetch found, and whose token).
HUB_SOURCE_KEYS = ("repo_id", "config", "split", "revision")


@contextmanager
def _job_source(job: ImportJob) -> Iterator[PathOrFile]:
    try:
        path = job.file.path
    except NotImplementedError:  # a storage without local paths (S3 and the like)
        path = None
    if path:
        yield path
        return
    with job.file.open("rb") as file:
        yield file


def _job_progress(job_id: int, bytes_done: int, rows_done: int) -> None:
    ImportJob.objects.filter(pk=job_id).update(bytes_done=bytes_done, rows_done=rows_done)


@contextmanager
def _write_pass_progress(job: ImportJob, offset: int) -> Iterator[Progress | None]:
    """Progress of the write pass, published through a second, autocommit connection.

    Only on PostgreSQL, and only when the caller is not itself inside a transaction (where
    the job row could be locked by this very connection and the second one would wait on
    it). On SQLite a second connection would wait for the import's write lock instead.
    """
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield None
        return
    side = connections.create_connection(DEFAULT_DB_ALIAS)
    table = side.ops.quote_name(ImportJob._meta.db_table)

    def publish(bytes_done: int, rows_done: int) -> None:
        try:
            with side.cursor() as cursor:
                cursor.execute("SET lock_timeout = '2s'")
                cursor.execute(
                    f"UPDATE {table} SET bytes_done = %s, rows_done = %s WHERE id = %s",
                    [offset + bytes_done // 2, rows_done, job.pk],
                )
        except DatabaseError:  # progress is best effort; the import goes on
            logger.warning("could not publish progress of import job %s", job.pk, exc_info=True)

    try:
        yield publish
    finally:
        side.close()


def _hub_fetch(job: ImportJob) -> None:
    """Write the job's Hub split into its file (labeling.hub.pull), as if it was uploaded,
    read with the token of the user who started the job, else the server's where hub_auth_for
    allows it for the repo, else none (public datasets); `hub.token` records whose."""
    from django.core.files import File

    from labeling.services.people.hub_tokens import hub_auth_for

    source = HubSource(**{k: v for k, v in job.hub.items() if k in HUB_SOURCE_KEYS})
    job.status = ImportStatus.RUNNING
    job.save(update_fields=["status"])
    # Only users start Hub imports: one whose creator was deleted reads as nobody.
    auth = hub_auth_for(user=job_actor(job), repo_id=source.repo_id)
    with tempfile.TemporaryFile() as out:
        fetched = hub_split_write(source, out, auth=auth)
        out.seek(0)
        job.file.save(f"hub-{job.pk}.jsonl", File(out), save=False)
    job.bytes_total = job.file.size
    job.hub = {
        **source.as_dict(),
        "files": fetched["files"],
        "rows": fetched["rows"],
        "token": auth.kind,
    }
    job.save(update_fields=["file", "bytes_total", "hub"])


def import_job_run(*, job: ImportJob) -> ImportJob:
    """Run an uploaded import: validate, then write; record status, progress, result or error.

    Two passes, because the write pass is one transaction that other connections cannot see
    into: (1) parse the whole file outside any transaction, publishing `bytes_done` from 0 to
    half of `bytes_total` (`rows_done` = rows checked), so a bad file fails before anything
    is written; (2) import it atomically; on PostgreSQL its progress (50% to 100%) goes out
    on a second connection, on SQLite the job stays at 50% until the commit. `rows_done`
    counts the rows of the pass in progress. A job that is already done is left as it is
    (a redelivered task); a failed or interrupted one is run again, which is safe because
    the import is atomic and idempotent.
    """
    if job.status == ImportStatus.DONE:
        return job
    if job.hub and not job.file:
        try:
            _hub_fetch(job)
        except DomainError as exc:
            job.status, job.finished_at = ImportStatus.FAILED, timezone.now()
            job.error = {
                "message": exc.message,
                "file": job.filename,
                "line": None,
                "field": exc.details.get("field"),
            }
            job.save(update_fields=["status", "error", "finished_at"])
            return job
    total = job.bytes_total or job.file.size
    job.status, job.bytes_total, job.bytes_done, job.rows_done = ImportStatus.RUNNING, total, 0, 0
    job.error, job.result, job.finished_at = {}, {}, None
    job.save(
        update_fields=[
            "status",
            "bytes_total",
            "bytes_done",
            "rows_done",
            "error",
            "result",
            "finished_at",
        ]
    )
    args = {
        "project": job.project,
        "fmt": job.format,
        "filename": job.filename,
        "domain": job.domain,
        "detect_uses": job.detect_uses,
        # The rule the job recorded when it was made; a job from before it kept one: the
        # project's rule now.
        "step_rule": StepRule(job.step_split, job.step_split_regex, job.step_split_tag)
        if job.step_split
        else None,
    }
    try:
        with _job_source(job) as source:
            summary = import_file_validate(
                path=source, progress=lambda b, r: _job_progress(job.pk, b // 2, r), **args
            )
        job.detected_format = summary.format
        job.save(update_fields=["detected_format"])
        args["fmt"] = summary.format
        with _job_source(job) as source, _write_pass_progress(job, total // 2) as publish:
            result = import_file(
                path=source,
                labels_as=job.labels_as,
                progress=publish,
                import_job_id=job.pk,
                near_duplicates=job.near_duplicates,
                **args,
            )
    except ImportFileError as exc:
        job.status, job.error = ImportStatus.FAILED, exc.as_dict()
    except DomainError as exc:
        job.status = ImportStatus.FAILED
        job.error = {
            "message": exc.message,
            "file": job.filename,
            "line": None,
            "field": exc.details.get("field"),
        }
    except Exception as exc:  # recorded on the job for the UI, and logged with its traceback
        logger.exception("import job %s failed", job.pk)
        job.status = ImportStatus.FAILED
        job.error = {
            "message": f"internal error: {exc}",
            "file": job.filename,
            "line": None,
            "field": None,
        }
    else:
        job.status, job.result = ImportStatus.DONE, result.as_dict()
        job.bytes_done, job.rows_done = total, result.rows
    job.finished_at = timezone.now()
    fields = ["status", "error", "result", "finished_at"]
    if job.status == ImportStatus.DONE:  # a failed job keeps the progress it had reached
        fields += ["bytes_done", "rows_done"]
    with transaction.atomic():  # the webhook event commits with the status it reports
        job.save(update_fields=fields)
        webhook_event_emit(
            project=job.project, event_type=IMPORT_FINISHED, data=import_finished_data(job)
        )
    return job
