"""Machine work yields the CPU to people: a Celery worker that consumes only machine queues
(annotate.queues.MACHINE_QUEUES: auto-label chunks, rollouts, GPU work, export builds) lowers
its own OS priority to MACHINE_WORKER_NICE (default 10) as it starts, before its pool forks,
so the pool's processes, the processes they start (the symbolic checker's workers) and their
threads all run at that nice level. The web server and the `default` worker (imports, a run's
start, the beat sweeps) keep theirs: under load the kernel gives a nice-0 process about ten
times the CPU of a nice-10 one, and an idle machine still gives the workers all of it.

Nice alone is not enough. A person's claim or submit is a dozen short round trips between
gunicorn and PostgreSQL, and each one waits for a process to wake up; with every core busy, even
with niced or SCHED_IDLE work, each wake-up took milliseconds on a two-core VM (a commit's round
trip 0.7 -> 2.9 ms), and the claim -> submit cycle doubled during a run whatever the nice level
(bench/labeling_during_run_bench.py). With one core free of machine work it stayed at 0.7 ms. So
such a worker also pins itself, before its pool forks, to the CPUs MACHINE_WORKER_CPUS names:
`auto` (the default) all but one of the CPUs it may use when there are at least two, `all` no
pinning, or a list such as `1-3,6`. The web server and PostgreSQL are not pinned: they use every
core, and the one left free is always there when a request wakes up.

A worker that consumes `default` too is left alone: its short tasks are someone's wait.
MACHINE_WORKER_NICE=0 turns both off (the bench measures each).
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
CPU_LIST_MAX = 4096  # the highest CPU number a MACHINE_WORKER_CPUS list may name


class CpuSpecError(ValueError):
    """MACHINE_WORKER_CPUS is not `auto`, `all` or a CPU list."""


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


def cpu_list(spec: str) -> set[int]:
    """The CPUs of a list such as ``1-3,6``."""
    cpus: set[int] = set()
    for part in spec.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise CpuSpecError(f"MACHINE_WORKER_CPUS: {part.strip()!r} is not a CPU or a range")
        low, high = int(first), int(last or first)
        if low > high or high > CPU_LIST_MAX:
            raise CpuSpecError(f"MACHINE_WORKER_CPUS: {part.strip()!r} is not a valid range")
        cpus.update(range(low, high + 1))
    return cpus


def machine_cpus(spec: str, available: set[int]) -> set[int] | None:
    """The CPUs a machine worker pins itself to under MACHINE_WORKER_CPUS `spec`, given the
    CPUs it may use now; None: no pinning."""
    spec = spec.strip().lower()
    if spec == "all":
        return None
    if spec == "auto":
        if len(available) < 2:
            return None  # one CPU: nothing to leave free
        return available - {min(available)}
    chosen = cpu_list(spec) & available
    if not chosen:
        raise CpuSpecError(f"MACHINE_WORKER_CPUS {spec!r} names none of CPUs {sorted(available)}")
    return chosen


def pin_to(spec: str) -> set[int] | None:
    """Pin this process (and what it forks or starts later) under `spec`; the CPUs it now
    runs on, None when it was left alone (or the platform cannot pin)."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpus = machine_cpus(spec, set(os.sched_getaffinity(0)))
    if cpus is not None:
        os.sched_setaffinity(0, cpus)
    return cpus


@celeryd_after_setup.connect
def _worker_nice(sender: str, instance, **_: object) -> None:
    """Runs in the worker's main process once -Q is applied, before the pool starts."""
    queues = list(instance.app.amqp.queues.consume_from)
    level = machine_nice(queues, int(getattr(settings, "MACHINE_WORKER_NICE", 10)))
    if not level:
        return
    now = nice_to(level)
    cpus = pin_to(str(getattr(settings, "MACHINE_WORKER_CPUS", "auto")))
    log.info(
        "worker %s (queues %s) runs at nice %s, on %s",
        sender,
        ",".join(sorted(queues)),
        now,
        f"CPUs {','.join(map(str, sorted(cpus)))}" if cpus is not None else "every CPU",
    )
