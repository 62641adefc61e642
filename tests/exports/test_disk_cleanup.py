"""A full disk or a killed worker leaves no export file or temporary directory behind."""

import errno
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from labeling.exporters import writers
from labeling.models import Export, ExportStatus
from labeling.services.exports import files as export_files
from labeling.services.exports.files import export_leftovers_remove
from labeling.services.exports.snapshots import export_build, export_create
from labeling.tasks import export_leftovers_remove_task
from tests.exports.conftest import file_bytes, steplab_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def tmp_root(tmp_path, settings) -> Path:
    root = tmp_path / "export-tmp"
    settings.EXPORT_TMP_DIR = str(root)
    settings.MEDIA_ROOT = str(tmp_path / "media")  # the storage of this test's exports only
    return root


@pytest.fixture
def imported(project, tmp_path):
    from labeling.services.imports import import_file

    path = steplab_file(tmp_path / "s.jsonl", 12)
    import_file(project=project, path=path, fmt="steplab", labels_as="annotations")


def _stored(export_id: int) -> list[str]:
    try:
        return default_storage.listdir(f"exports/{export_id}")[1]
    except FileNotFoundError:
        return []


def _full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_while_writing_fails_the_export_and_leaves_nothing(
    imported, project, tmp_root, monkeypatch
):
    seen: list[Path] = []
    real_open = writers.JsonlWriter.__init__

    def spying_init(self, path, *, compress):
        seen.append(path)
        real_open(self, path, compress=compress)

    monkeypatch.setattr(writers.JsonlWriter, "__init__", spying_init)
    monkeypatch.setattr(writers.JsonlWriter, "_flush", _full_disk)
    export = export_build(export=export_create(project=project, created_by=None, format="trl"))
    stored = Export.objects.get(pk=export.pk)
    assert stored.status == ExportStatus.FAILED
    assert "disk is full" in stored.error["message"]
    assert "partial file was removed" in stored.error["message"]
    assert seen and seen[0].parent.parent == tmp_root  # it did write into the temp root
    assert list(tmp_root.iterdir()) == []  # the partial file and its directory are gone
    assert _stored(export.pk) == [] and not stored.file


def test_a_full_disk_while_storing_removes_the_partial_stored_file(
    imported, project, tmp_root, monkeypatch
):
    real_save = default_storage._save

    def save_half(name, content):
        real_save(name, ContentFile(b'{"half":'))  # the part a full disk let through
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(default_storage, "_save", save_half)
    export = export_build(export=export_create(project=project, created_by=None, format="trl"))
    assert export.status == ExportStatus.FAILED and "disk is full" in export.error["message"]
    assert _stored(export.pk) == []
    assert list(tmp_root.iterdir()) == []
    monkeypatch.undo()
    again = export_build(export=Export.objects.get(pk=export.pk))  # space freed: it builds
    assert again.status == ExportStatus.DONE and file_bytes(again)


def test_the_built_file_is_moved_into_the_storage_not_copied(
    imported, project, tmp_root, monkeypatch
):
    from django.core.files.storage import filesystem

    moved: list[tuple[Path, int]] = []
    real_move = filesystem.file_move_safe

    def spying_move(old, new, **kwargs):
        moved.append((Path(old), Path(old).stat().st_ino))
        real_move(old, new, **kwargs)

    monkeypatch.setattr(filesystem, "file_move_safe", spying_move)
    export = export_build(export=export_create(project=project, created_by=None, format="trl"))
    assert export.status == ExportStatus.DONE and file_bytes(export)
    assert len(moved) == 1 and moved[0][0].parent.parent == tmp_root  # the build's own file
    # Same file system: renamed, the very inode, not written a second time.
    assert Path(default_storage.path(export.file.name)).stat().st_ino == moved[0][1]
    assert list(tmp_root.iterdir()) == []


def test_the_sweep_removes_what_a_killed_build_left(imported, project, tmp_root):
    # A worker killed mid-build: the export says running (requeued later), its dir and a
    # partly stored file stay. Another export is done; a third row was deleted.
    killed = export_create(project=project, created_by=None, format="trl")
    done = export_build(export=export_create(project=project, created_by=None, format="trl"))
    live = export_create(project=project, created_by=None, format="trl")
    Export.objects.filter(pk=live.pk).update(status=ExportStatus.RUNNING)
    killed_dir = export_files.tmp_dir_make(export_id=killed.pk)
    (killed_dir / "part.jsonl").write_bytes(b"x" * 1000)
    live_dir = export_files.tmp_dir_make(export_id=live.pk)
    gone_dir = export_files.tmp_dir_make(export_id=987654)
    default_storage.save(f"exports/{killed.pk}/part.jsonl", ContentFile(b"half"))
    default_storage.save("exports/987654/old.jsonl", ContentFile(b"orphan"))
    default_storage.save(f"exports/{done.pk}/stray.jsonl", ContentFile(b"stray"))
    unrelated = tmp_root / "not-an-export"
    unrelated.mkdir()

    # The killed build's rebuild first clears its own leftovers, then builds.
    Export.objects.filter(pk=killed.pk).update(status=ExportStatus.FAILED)
    assert export_leftovers_remove_task() == {"tmp_dirs": 2, "files": 3}

    assert not killed_dir.exists() and not gone_dir.exists()
    assert live_dir.exists()  # a running build's directory is kept
    assert unrelated.exists()
    assert _stored(killed.pk) == [] and _stored(987654) == []
    assert _stored(done.pk) == [Path(done.file.name).name]  # its own file kept
    assert file_bytes(Export.objects.get(pk=done.pk))


def test_a_rebuild_clears_its_own_leftovers_first(imported, project, tmp_root):
    export = export_create(project=project, created_by=None, format="trl")
    Export.objects.filter(pk=export.pk).update(status=ExportStatus.RUNNING)
    old_dir = export_files.tmp_dir_make(export_id=export.pk)
    default_storage.save(f"exports/{export.pk}/part.jsonl", ContentFile(b"half"))
    assert export_leftovers_remove() == {"tmp_dirs": 0, "files": 0}  # running: kept
    built = export_build(export=Export.objects.get(pk=export.pk))  # the redelivered task
    assert built.status == ExportStatus.DONE
    assert not old_dir.exists() and list(tmp_root.iterdir()) == []
    assert _stored(export.pk) == [Path(built.file.name).name]


def test_the_sweep_leaves_another_databases_directories(imported, project, tmp_root):
    # Two steplab instances (or test runs) sharing one temp directory: export ids repeat
    # across databases, so the other's directories carry its tag and are never this one's.
    failed = export_create(project=project, created_by=None, format="trl")
    Export.objects.filter(pk=failed.pk).update(status=ExportStatus.FAILED)
    mine = export_files.tmp_dir_make(export_id=failed.pk)
    assert mine.name.startswith(f"steplab-export-{export_files.database_tag()}-{failed.pk}-")
    other_tag = "0" * 8 if export_files.database_tag() != "0" * 8 else "1" * 8
    theirs = tmp_root / f"steplab-export-{other_tag}-{failed.pk}-abc12345"
    theirs.mkdir()
    legacy = tmp_root / f"steplab-export-{failed.pk}-xyz98765"  # named before the tag
    legacy.mkdir()

    assert export_leftovers_remove() == {"tmp_dirs": 2, "files": 0}
    assert not mine.exists() and not legacy.exists()
    assert theirs.exists()
    assert export_leftovers_remove(export_id=failed.pk) == {"tmp_dirs": 0, "files": 0}
    assert theirs.exists()
