"""Celery queue names, in one place. Worker commands are documented in docs/operators.md.

`default` holds the short tasks people wait on (an import, a run's start, the beat sweeps);
every other queue holds machine work (an auto-label run's chunks, rollouts and judges, PRM
scoring and training, export builds), consumed by workers that lower their own OS priority
(annotate.worker_priority) so that the web server and the `default` worker keep the CPU.
"""

from enum import StrEnum


class Queue(StrEnum):
    DEFAULT = "default"
    AUTOLABEL = "autolabel"  # chunks of runs whose engines need only CPU
    ROLLOUTS = "rollouts"
    GPU = "gpu"
    EXPORTS = "exports"


INTERACTIVE_QUEUES = frozenset({Queue.DEFAULT})
MACHINE_QUEUES = frozenset(Queue) - INTERACTIVE_QUEUES
