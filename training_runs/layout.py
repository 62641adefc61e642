"""Where training runs write: TRAINING_ROOT/run-<id>/ (the export copy, config, log, and the
trained model in out/). One run's directory belongs to its run's project."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings


def training_root() -> Path:
    return Path(getattr(settings, "TRAINING_ROOT", Path(settings.MEDIA_ROOT) / "training"))


def run_dir(run: Any) -> Path:
    return training_root() / f"run-{run.pk}"
