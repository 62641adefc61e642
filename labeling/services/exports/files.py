"""An export's files on disk: its temporary build directory and its stored file, and the
removal of what a failed or killed build left behind.

A build writes into a temporary directory named after its database and export
(`steplab-export-<database tag>-<id>-<random>` under EXPORT_TMP_DIR, the system's temp directory by
default: another steplab or test run sharing it has another tag, untouched here) and then moves
the file into the default storage under `exports/<id>/` (a copy where the storage is elsewhere).
A failure (a full disk included) removes both as it happens
(labeling.services.exports.snapshots). A worker killed mid-build cannot: its directory, and a
partly copied stored file, stay. `export_leftovers_remove` (run by the recovery sweep, and for
one export at the start of its rebuild) removes them for every export that is not running: a
directory or file whose export is gone, failed, done (all but its own file) or pending.
"""

import hashlib
import logging
import re
import shutil
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.files.storage import default_storage

from labeling.models import Export, ExportStatus

logger = logging.getLogger(__name__)

TMP_PREFIX = "steplab-export-"
# steplab-export-<database tag>-<export id>-<random>; before the tag: steplab-export-<id>-<random>
_TMP_NAME = re.compile(rf"^{TMP_PREFIX}(?:([0-9a-f]{{8}})-)?(\d+)-")
STORAGE_DIR = "exports"


def tmp_root() -> Path:
    return Path(getattr(settings, "EXPORT_TMP_DIR", None) or tempfile.gettempdir())


def database_tag() -> str:
    """8 hex digits naming this instance's database: the directories of another steplab (or
    test run) sharing the temp directory carry another tag, and no sweep here touches them
    (their export ids are another database's)."""
    db = settings.DATABASES["default"]
    where = f"{db.get('ENGINE')}|{db.get('HOST')}|{db.get('PORT')}|{db.get('NAME')}"
    return hashlib.sha1(where.encode(), usedforsecurity=False).hexdigest()[:8]


def tmp_dir_make(*, export_id: int) -> Path:
    """A fresh temporary directory for the export's build (the caller removes it)."""
    root = tmp_root()
    root.mkdir(parents=True, exist_ok=True)
    prefix = f"{TMP_PREFIX}{database_tag()}-{export_id}-"
    return Path(tempfile.mkdtemp(prefix=prefix, dir=root))


def tmp_dir_remove(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def stored_remove(name: str) -> None:
    """Delete a stored export file if it is there; a failure is logged, not raised (it runs
    while another failure is being recorded)."""
    try:
        if name and default_storage.exists(name):
            default_storage.delete(name)
    except OSError:
        logger.warning("could not remove export file %s", name, exc_info=True)


def _tmp_dirs(export_id: int | None) -> dict[int, list[Path]]:
    root = tmp_root()
    found: dict[int, list[Path]] = {}
    if not root.is_dir():
        return found
    mine = database_tag()
    for path in root.glob(f"{TMP_PREFIX}*"):
        match = _TMP_NAME.match(path.name)
        if not match or match.group(1) not in (mine, None):
            continue  # not an export's, or another database's (a legacy name has no tag)
        pk = int(match.group(2))
        if export_id is None or pk == export_id:
            found.setdefault(pk, []).append(path)
    return found


def _stored_dirs(export_id: int | None) -> dict[int, list[str]]:
    """{export id: [stored file names]} under exports/ (FileSystemStorage-like storages)."""
    found: dict[int, list[str]] = {}
    try:
        if export_id:
            ids = [str(export_id)] if default_storage.exists(f"{STORAGE_DIR}/{export_id}") else []
        else:
            ids = default_storage.listdir(STORAGE_DIR)[0]
        for name in ids:
            if name.isdigit():
                files = default_storage.listdir(f"{STORAGE_DIR}/{name}")[1]
                found[int(name)] = [f"{STORAGE_DIR}/{name}/{f}" for f in files]
    except (FileNotFoundError, NotImplementedError):
        pass
    return found


def export_leftovers_remove(*, export_id: int | None = None) -> dict[str, int]:
    """Remove the temporary directories and stored files that no running build owns: of
    exports that are gone or not running (a done export keeps its own file). Listed before the
    statuses are read: a build marks its export running before it makes its directory, so a
    directory listed here whose export is not running is no live build's.
    `export_id`: only that export's (its rebuild's start). Returns what it removed."""
    dirs, stored = _tmp_dirs(export_id), _stored_dirs(export_id)
    ids = set(dirs) | set(stored)
    rows = {
        pk: (status, file)
        for pk, status, file in Export.objects.filter(pk__in=ids).values_list(
            "pk", "status", "file"
        )
    }
    removed = {"tmp_dirs": 0, "files": 0}
    for pk, paths in dirs.items():
        status, _ = rows.get(pk, (None, ""))
        if status == ExportStatus.RUNNING and export_id is None:
            continue  # a live build's (a killed one's goes once its rebuild ends)
        for path in paths:
            logger.warning("removing export %s's leftover temporary directory %s", pk, path)
            tmp_dir_remove(path)
            removed["tmp_dirs"] += 1
    for pk, names in stored.items():
        status, keep = rows.get(pk, (None, ""))
        if status == ExportStatus.RUNNING and export_id is None:
            continue
        for name in names:
            if status == ExportStatus.DONE and name == keep:
                continue
            logger.warning("removing export %s's leftover file %s", pk, name)
            stored_remove(name)
            removed["files"] += 1
    return removed
