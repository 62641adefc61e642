"""An export into a really full disk: a 1 MB tmpfs (needs root to mount; skipped otherwise).

The writer's own ENOSPC, not a simulated one: the export fails with the disk-full message and
the filesystem is left as empty as it was, whether the build's temporary file or the stored
copy ran out of space.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

from labeling.models import Export, ExportStatus
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.imports import import_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def tiny_disk(tmp_path):
    mount = tmp_path / "tiny"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode()[:200]}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


@pytest.fixture
def big_project(project, tmp_path):
    """About 3 MB of export: 60 solutions of 25 steps of 2,000 characters."""
    path = tmp_path / "big.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for i in range(60):
            steps = [f"solution {i} step {k}: " + "x" * 2000 for k in range(25)]
            row = {"problem": f"Problem {i}", "answer": "1", "steps": steps, "labels": [1] * 25}
            f.write(json.dumps(row) + "\n")
    import_file(project=project, path=path, fmt="steplab", labels_as="annotations")
    return project


def _files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*")]


@pytest.mark.parametrize("full", ["temporary file", "stored copy"])
def test_an_export_into_a_full_disk_fails_cleanly(big_project, tiny_disk, tmp_path, settings, full):
    if full == "temporary file":
        settings.EXPORT_TMP_DIR = str(tiny_disk)
        settings.MEDIA_ROOT = str(tmp_path / "media")
    else:
        settings.EXPORT_TMP_DIR = str(tmp_path / "export-tmp")
        settings.MEDIA_ROOT = str(tiny_disk)
    export = export_create(project=big_project, created_by=None, format="trl")
    export = export_build(export=export)
    stored = Export.objects.get(pk=export.pk)
    assert stored.status == ExportStatus.FAILED
    assert stored.error["message"].startswith("The disk is full (no space left on device)")
    assert not stored.file
    leftovers = [p for p in _files(tiny_disk) if p.is_file()]
    assert leftovers == []  # the partial file is gone: the disk is free again
    assert os.statvfs(tiny_disk).f_bfree == os.statvfs(tiny_disk).f_blocks
