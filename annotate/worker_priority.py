"""Machine work yields the CPU to people: a Celery worker that consumes only machine queues
(annotate.queues.MACHINE_QUEUES: auto-label chunks, rollouts, GPU work, export builds) lowers
its own OS priority to MACHINE_WORKER_NICE (default 10) as it starts, before its pool forks,
so the pool's processes, the processes they start (the symbolic checker's workers) and their
threads all run at that nice level. The web server and the `default` worker (imports, a run's
start, the beat sweeps) keep theirs: under load the kernel gives a nice-0 process about ten
times the CPU of a nice-10 one, and an idle machine still gives the workers all of it.

A worker that consumes `default` too is left alone: its short tasks are someone's wait.
MACHINE_WORKER_NICE=0 turns this off (bench/labeling_during_run_bench.py measures both).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable

from celery.signals import celeryd_after_setup
from django.conf import settings

from annotate.queues import MACHINE_QUEUES

log = logging.getLogger(__name__)
NICE_MAX = 19  # the lowest priority there is (Linux)


def machine_nice(queues: Iterable[str], level: int) -> int:
    """The nice level a worker consuming `queues` should run at: `level` when every one of
    them is a machine queue, else 0 (no change)."""
    names = set(queues)
    if not names or not names <= MACHINE_QUEUES:
        return 0
    return min(max(level, 0), NICE_MAX)


def nice_to(level: int) -> int:
    """Lower this process's priority to `level` (never raise it: only root may); returns the
    level it now runs at."""
    current = os.getpriority(os.PRIO_PROCESS, 0)
    if level > current:
        os.setpriority(os.PRIO_PROCESS, 0, level)
    return os.getpriority(os.PRIO_PROCESS, 0)


@celeryd_after_setup.connect
def _worker_nice(sender: str, instance, **_: object) -> None:
    """Runs in the worker's main process once -Q is applied, before the pool starts."""
    queues = list(instance.app.amqp.queues.consume_from)
    level = machine_nice(queues, int(getattr(settings, "MACHINE_WORKER_NICE", 10)))
    if level:
        now = nice_to(level)
        log.info("worker %s (queues %s) runs at nice %s", sender, ",".join(sorted(queues)), now)
