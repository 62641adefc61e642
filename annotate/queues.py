"""Celery queue names, in one place. Worker commands are documented in docs/operators.md."""

from enum import StrEnum


class Queue(StrEnum):
    DEFAULT = "default"
    ROLLOUTS = "rollouts"
    GPU = "gpu"
    EXPORTS = "exports"
