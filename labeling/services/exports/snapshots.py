"""Export snapshots: create (validate and store the options), build (a worker streams the
rows into a file), delete. Label Studio's snapshot shape: create, poll, download.

`export_build` reads the records chunk by chunk (labeling.exporters.source), formats them,
writes them to a temporary file while hashing it (labeling.services.exports.writing: with
two CPUs the formatting runs in a forked process), then moves the file into the default
storage under `exports/<id>/`. On PostgreSQL the whole read is one REPEATABLE READ, READ
ONLY transaction, so every chunk sees the same snapshot and the file is a consistent view
of one moment; its progress goes out through a second, autocommit connection so pollers see
it while the snapshot is open. On SQLite (local use) the read runs in autocommit and
progress is written on the same connection. A done export is immutable: building it again
returns it unchanged; a failed or interrupted one (a redelivered task) is built again from
scratch, which is safe because nothing is stored until the file is complete.
"""

import dataclasses
import errno
import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.core.files import File
from django.core.files.storage import default_storage
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.utils import timezone

from labeling.accounts.operators import acts_as_server
from labeling.errors import DomainError, ValidationFailed
from labeling.exporters import (
    EXTENSIONS,
    FILE_TYPES,
    FORMATS,
    CardInfo,
    ExportOptions,
    Stats,
    options_from,
    render_card,
)
from labeling.exporters.source import CHUNK, matching_solutions
from labeling.models import Export, ExportStatus, Project
from labeling.services.exports.files import (
    export_leftovers_remove,
    stored_remove,
    tmp_dir_make,
    tmp_dir_remove,
)
from labeling.services.exports.writing import write_export
from labeling.services.in_use import delete_unless_in_use
from labeling.services.jobs.quota import active_jobs_check
from labeling.services.webhooks.events import (
    EXPORT_FAILED,
    EXPORT_READY,
    export_data,
    webhook_event_emit,
)

logger = logging.getLogger(__name__)

Progress = Callable[[int, int], None]  # (solutions_done, solutions_total)


# A Hugging Face repository id ("org/name" or "name"): the only tokenizer a non-staff user may
# name other than a directory under the model directories.
_HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]{0,95}(/[A-Za-z0-9][\w.-]{0,95})?")


def _tokenizer_checked(options: Any, *, user: Any, project: Project) -> Any:
    """label_policy.tokenizer is loaded by the server (the web process and the export worker,
    from_pretrained): for a non-staff user a path goes through training_runs.model_refs like a
    run's model path (under MODEL_DIRS or this project's training runs, stored resolved; a
    refusal does not say whether it exists), and a name must be a Hub repository id that is
    not also a directory relative to the server's working directory (from_pretrained reads a
    local directory first)."""
    from training_runs.model_refs import check_model_path

    name = options.label_policy.tokenizer
    field = "label_policy.tokenizer"
    if not name or acts_as_server(user):
        return options
    hub_name = _HUB_ID.fullmatch(name) and ".." not in name and not Path(name).exists()
    if hub_name:
        return options
    path = check_model_path(
        str(Path(name).expanduser()) if name.startswith("~") else name,
        user=user,
        project=project,
        field=field,
    )
    return dataclasses.replace(
        options, label_policy=dataclasses.replace(options.label_policy, tokenizer=path)
    )


def _check(*, fmt: str, file_type: str) -> None:
    if fmt not in FORMATS:
        raise ValidationFailed(
            f"format must be one of {', '.join(FORMATS)}; got {fmt!r}.", field="format"
        )
    if file_type not in FILE_TYPES:
        raise ValidationFailed(
            f"file_type must be one of {', '.join(FILE_TYPES)}; got {file_type!r}.",
            field="file_type",
        )


@transaction.atomic  # the job quota's lock and the project's (project_live_hold) last to its end
def export_create(
    *,
    project: Project,
    created_by: Any,
    format: str,
    file_type: str = "jsonl",
    filters: dict[str, Any] | None = None,
    label_policy: dict[str, Any] | None = None,
    split_policy: dict[str, Any] | None = None,
) -> Export:
    """Validate the options and store a pending Export with them normalized.

    The caller queues the build (the API: `export_build_task` on commit; the CLI runs
    `export_build` itself). Raises ValidationFailed naming the bad option.
    """
    _check(fmt=format, file_type=file_type)
    options = options_from(filters=filters, label_policy=label_policy, split_policy=split_policy)
    options = _tokenizer_checked(options, user=created_by, project=project)
    FORMATS[format].check(options)
    unfinished = Export.objects.filter(
        project=project, status__in=(ExportStatus.PENDING, ExportStatus.RUNNING)
    )
    active_jobs_check(project_id=project.pk, kind="exports", unfinished=unfinished, user=created_by)
    return Export.objects.create(
        project=project,
        created_by=created_by if getattr(created_by, "pk", None) else None,
        created_by_server=created_by is None,
        format=format,
        file_type=file_type,
        filters=options.filters.as_dict(),
        label_policy=options.label_policy.as_dict(),
        split_policy=options.split_policy.as_dict(),
    )


def _file_name(export: Export) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", export.project.name.lower()).strip("-")[:60] or "project"
    return f"{slug}-{export.format}-{export.pk}{EXTENSIONS[export.file_type]}"


@contextmanager
def _snapshot() -> Iterator[bool]:
    """One REPEATABLE READ, READ ONLY transaction on PostgreSQL; yields whether it opened it."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield False
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield True


@contextmanager
def _publisher(export: Export, *, side: bool) -> Iterator[Callable[[int], None]]:
    """Write solutions_done after each chunk: on a second connection when `side`."""
    if not side:

        def same(done: int) -> None:
            Export.objects.filter(pk=export.pk).update(
                solutions_done=done, heartbeat_at=timezone.now()
            )

        yield same
        return
    other = connections.create_connection(DEFAULT_DB_ALIAS)
    table = other.ops.quote_name(Export._meta.db_table)

    def publish(done: int) -> None:
        try:
            with other.cursor() as cursor:
                cursor.execute("SET lock_timeout = '2s'")
                cursor.execute(
                    f"UPDATE {table} SET solutions_done = %s, heartbeat_at = %s WHERE id = %s",
                    [done, timezone.now(), export.pk],
                )
        except DatabaseError:  # progress is best effort; the export goes on
            logger.warning("could not publish progress of export %s", export.pk, exc_info=True)

    try:
        yield publish
    finally:
        other.close()


class _BuiltFile(File):
    """The built file, offered to the storage as a finished temporary file: the file system
    storage moves it into place (a rename on the same file system, else a copy) instead of
    reading and writing it again (a GB at a million solutions); others read it as usual."""

    def __init__(self, file: Any, name: str, path: Path) -> None:
        super().__init__(file, name=name)
        self._path = path

    def temporary_file_path(self) -> str:
        return str(self._path)


def _store(export: Export, path: Path, name: str) -> str:
    target = f"exports/{export.pk}/{name}"
    if default_storage.exists(target):  # left by an interrupted earlier run
        default_storage.delete(target)
    try:
        with open(path, "rb") as f:
            return default_storage.save(target, _BuiltFile(f, name, path))
    except BaseException:
        # A copy cut short (a full disk) leaves its part under the name it was given.
        stored_remove(target)
        raise


def _failure_message(exc: Exception) -> str:
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return (
            "The disk is full (no space left on device): the export was not written and its "
            "partial file was removed. Free some space and build it again."
        )
    return f"internal error: {exc}"


def _card(export: Export, stats: Stats, options: ExportOptions) -> str:
    return render_card(
        CardInfo(
            export_id=export.pk,
            project_name=export.project.name,
            project_id=export.project_id,
            format=export.format,
            file_type=export.file_type,
            file_name=Path(export.file.name).name,
            sha256=export.sha256,
            size_bytes=export.size_bytes,
            created_at=export.created_at,
            created_by=export.created_by.username if export.created_by else "",
            options={
                "filters": options.filters.as_dict(),
                "label_policy": options.label_policy.as_dict(),
                "split_policy": options.split_policy.as_dict(),
            },
            stats=stats.as_dict(),
        )
    )


def export_build(
    *, export: Export, progress: Progress | None = None, chunk_size: int = CHUNK
) -> Export:
    """Build the export's file; records status, progress, counts, sha256, file and card.

    `progress(solutions_done, solutions_total)` is called after every chunk (the CLI's bar).
    Returns the export; a failure is recorded on it (status failed, `error.message`), not
    raised.
    """
    if export.status == ExportStatus.DONE:
        return export
    options = options_from(
        filters=export.filters, label_policy=export.label_policy, split_policy=export.split_policy
    )
    total = matching_solutions(project=export.project, filters=options.filters).count()
    Export.objects.filter(pk=export.pk).update(
        status=ExportStatus.RUNNING,
        started_at=timezone.now(),
        heartbeat_at=timezone.now(),
        finished_at=None,
        solutions_total=total,
        solutions_done=0,
        error={},
    )
    export.refresh_from_db()
    # What an earlier, killed build of it left (labeling.services.exports.files).
    export_leftovers_remove(export_id=export.pk)
    tmp = None
    try:
        tmp = tmp_dir_make(export_id=export.pk)
        name = _file_name(export)
        path = tmp / name
        with _snapshot() as opened, _publisher(export, side=opened) as publish:

            def on_chunk(done: int) -> None:
                publish(done)
                if progress:
                    progress(done, total)

            stats, sha256, size = write_export(
                export=export,
                options=options,
                path=path,
                on_chunk=on_chunk,
                chunk_size=chunk_size,
                # In the snapshot nothing else queries this connection while it reads
                # (progress goes out on the second one): the next chunks are read on a
                # thread while this one is formatted.
                read_ahead_chunks=opened,
                total=total,
            )
        stored = _store(export, path, name)
    except DomainError as exc:
        return _fail(export, exc.message)
    except Exception as exc:  # recorded on the export for the UI, logged with its traceback
        logger.exception("export %s failed", export.pk)
        return _fail(export, _failure_message(exc))
    finally:
        if tmp is not None:
            tmp_dir_remove(tmp)
    export.file.name = stored
    export.sha256, export.size_bytes = sha256, size
    export.row_count, export.step_count = stats.rows, stats.steps
    export.solutions_done = stats.solutions_read
    export.stats = stats.as_dict()
    export.card = _card(export, stats, options)
    export.status, export.finished_at = ExportStatus.DONE, timezone.now()
    with transaction.atomic():  # the webhook event commits with the status it reports
        updated = Export.objects.filter(pk=export.pk).update(
            file=export.file.name,
            sha256=sha256,
            size_bytes=size,
            row_count=export.row_count,
            step_count=export.step_count,
            solutions_done=export.solutions_done,
            stats=export.stats,
            card=export.card,
            status=export.status,
            finished_at=export.finished_at,
        )
        if updated:
            webhook_event_emit(
                project=export.project, event_type=EXPORT_READY, data=export_data(export)
            )
    if not updated:  # deleted while it was being built: do not leave its file behind
        default_storage.delete(stored)
    return export


def _fail(export: Export, message: str) -> Export:
    export.status, export.finished_at = ExportStatus.FAILED, timezone.now()
    export.error = {"message": message}
    with transaction.atomic():
        updated = Export.objects.filter(pk=export.pk).update(
            status=export.status, finished_at=export.finished_at, error=export.error
        )
        if updated:
            webhook_event_emit(
                project=export.project, event_type=EXPORT_FAILED, data=export_data(export)
            )
    return export


# A job that reads an export's file until it ends: a training run (training_runs), a Hub push.
# Both store these statuses' values ("pending", "running") while unfinished.
_UNFINISHED = (ExportStatus.PENDING, ExportStatus.RUNNING)


def export_users(export: Export) -> list[str]:
    """Words for each unfinished job that reads `export`'s file."""
    runs = export.training_runs.filter(status__in=_UNFINISHED).values_list("pk", flat=True)
    pushes = export.hub_pushes.filter(status__in=_UNFINISHED).values_list("pk", flat=True)
    return [f"training run {pk}" for pk in runs] + [f"Hub push {pk}" for pk in pushes]


def export_delete(*, export: Export) -> None:
    """Delete an export and, once the deletion commits, its file. A build still running
    notices at its end and removes what it wrote. A 409 while an unfinished training run or
    Hub push reads it (before, its file went under them and they failed); they lock the
    export's row when they are created, so the two serialize (labeling/services/in_use.py)."""
    with transaction.atomic():
        deleted = delete_unless_in_use(
            Export.objects, pk=export.pk, what=lambda row: f"Export {row.pk}", users=export_users
        )
        name = deleted.file.name if deleted is not None else ""
        if name:
            transaction.on_commit(lambda: default_storage.delete(name))
