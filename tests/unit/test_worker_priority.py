"""Machine work yields the CPU (annotate.worker_priority, annotate.queues): an auto-label run's
chunks go to a machine queue, and a real Celery worker that consumes only machine queues runs
every process and thread of its tree at MACHINE_WORKER_NICE, pinned to all CPUs but one
(MACHINE_WORKER_CPUS=auto), while one that also consumes
`default` (the short tasks people wait on) keeps the priority it was started with.

The workers here use a SQLite-file broker in a temporary folder, so they can take no message
of anyone else's from a shared Redis."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from annotate.queues import MACHINE_QUEUES, Queue
from annotate.worker_priority import NICE_MAX, CpuSpecError, machine_cpus, machine_nice
from autolabel.registry import chunk_queue
from tests.factories import ProjectFactory, SolutionFactory

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 90


def test_only_default_is_interactive():
    assert Queue.DEFAULT not in MACHINE_QUEUES
    assert {Queue.AUTOLABEL, Queue.ROLLOUTS, Queue.GPU, Queue.EXPORTS} == MACHINE_QUEUES


@pytest.mark.parametrize(
    ("queues", "level", "expected"),
    [
        (["autolabel", "rollouts", "exports"], 10, 10),
        (["gpu"], 7, 7),
        (["default", "autolabel"], 10, 0),  # its short tasks are someone's wait
        (["default"], 10, 0),
        ([], 10, 0),
        (["autolabel"], 0, 0),  # MACHINE_WORKER_NICE=0: off
        (["autolabel"], 40, NICE_MAX),
        (["autolabel"], -5, 0),  # never a higher priority than it was started with
        (["autolabel", "someone-elses"], 10, 0),
    ],
)
def test_machine_nice(queues, level, expected):
    assert machine_nice(queues, level) == expected


@pytest.mark.parametrize(
    ("sources", "queue"),
    [
        (["symbolic"], "autolabel"),
        (["answer", "symbolic", "consensus"], "autolabel"),
        (["rollout"], "rollouts"),
        (["symbolic", "judge"], "rollouts"),
        (["prm", "symbolic"], "gpu"),
    ],
)
def test_chunks_go_to_a_machine_queue(sources, queue):
    assert chunk_queue(sources) == queue
    assert queue in MACHINE_QUEUES


@pytest.mark.django_db
def test_a_symbolic_runs_chunks_are_sent_to_the_autolabel_queue(monkeypatch):
    from autolabel import tasks
    from autolabel.services import autolabel_run_create

    project = ProjectFactory()
    for _ in range(5):
        SolutionFactory(problem__project=project)
    run = autolabel_run_create(project=project, sources=["symbolic"], params={"chunk_size": 2})
    sent = []
    monkeypatch.setattr(
        tasks.autolabel_chunk_task, "apply_async", lambda args, queue: sent.append((args, queue))
    )
    assert tasks.autolabel_run_start_task(run.pk) == 3
    assert [queue for _, queue in sent] == ["autolabel"] * 3
    assert sorted(i for (_, chunk), _ in sent for i in chunk) == sorted(
        project.solutions.values_list("pk", flat=True)
    )


@pytest.mark.parametrize(
    ("spec", "available", "expected"),
    [
        ("auto", {0, 1}, {1}),  # one core left for people's requests
        ("auto", {0, 1, 2, 3}, {1, 2, 3}),
        ("auto", {2, 5}, {5}),  # a worker already confined (taskset, cgroup): within its CPUs
        ("auto", {0}, None),  # one CPU: nothing to leave free
        ("all", {0, 1}, None),
        (" AUTO ", {0, 1}, {1}),
        ("1-2,5", {0, 1, 2, 3}, {1, 2}),  # CPUs it may not use are left out
        ("3", {0, 1, 2, 3}, {3}),
    ],
)
def test_machine_cpus(spec, available, expected):
    assert machine_cpus(spec, available) == expected


@pytest.mark.parametrize("spec", ["", "x", "1-", "-1", "3-1", "1,,2", "7", "0-99999", "1.5"])
def test_a_bad_cpu_list_is_refused_with_what_is_wrong(spec):
    with pytest.raises(CpuSpecError, match="MACHINE_WORKER_CPUS"):
        machine_cpus(spec, {0, 1, 2, 3})


# --- real workers -------------------------------------------------------------------------


def _thread_nices(pid: int) -> dict[str, tuple[int, tuple[int, ...]]]:
    """'pid/tid' -> (nice, CPUs it may run on) of every thread of the process `pid` and of its
    descendants."""
    import psutil

    found = {}
    root = psutil.Process(pid)
    for proc in [root, *root.children(recursive=True)]:
        for task in Path(f"/proc/{proc.pid}/task").iterdir():
            try:
                stat = (task / "stat").read_text()
                cpus = tuple(sorted(os.sched_getaffinity(int(task.name))))
            except OSError:
                continue  # gone meanwhile
            nice = int(stat.rsplit(")", 1)[1].split()[16])
            found[f"{proc.pid}/{task.name}"] = (nice, cpus)
    return found


def _worker(tmp_path: Path, name: str, queues: str, nice: str) -> tuple[subprocess.Popen, Path]:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "annotate.settings.local",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}",
            "CELERY_RESULT_BACKEND": f"db+sqlite:///{tmp_path / 'results.sqlite3'}",
            "MACHINE_WORKER_NICE": nice,
        }
    )
    log = tmp_path / f"{name}.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "annotate", "worker", "-Q", queues,
         "--concurrency", "2", "-n", f"{name}@%h", "-l", "info", "--without-gossip",
         "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    return proc, log


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_a_machine_worker_runs_niced_and_a_default_worker_does_not(tmp_path):
    from bench.load.procs import stop

    own = os.getpriority(os.PRIO_PROCESS, 0)
    mine = tuple(sorted(os.sched_getaffinity(0)))
    pinned = mine[1:] if len(mine) > 1 else mine
    if own >= 7:
        pytest.skip(f"this test runs at nice {own} already")
    machine, machine_log = _worker(tmp_path, "machine", "autolabel,rollouts,exports", "7")
    main = main_log = None
    try:
        # Both consume "autolabel": kombu's SQLite transport creates a queue's row on first use
        # without a retry, so two workers declaring it at the same moment on a fresh broker
        # file can fail one ("UNIQUE constraint failed: kombu_queue.name", seen under xdist).
        # The second starts once the first is ready (the queue's row exists).
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline and " ready." not in machine_log.read_text():
            assert machine.poll() is None, machine_log.read_text()[-3000:]
            time.sleep(0.2)
        main, main_log = _worker(tmp_path, "main", "default,autolabel", "7")
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline and not all(
            " ready." in log.read_text() for log in (machine_log, main_log)
        ):
            assert machine.poll() is None, machine_log.read_text()[-3000:]
            assert main.poll() is None, main_log.read_text()[-3000:]
            time.sleep(0.2)
        assert " ready." in machine_log.read_text(), machine_log.read_text()[-3000:]
        assert " ready." in main_log.read_text(), main_log.read_text()[-3000:]

        niced = _thread_nices(machine.pid)
        assert len({key.split("/")[0] for key in niced}) >= 3  # the worker and its 2 pool processes
        assert set(niced.values()) == {(7, pinned)}, niced
        assert "runs at nice 7, on " in machine_log.read_text()

        kept = _thread_nices(main.pid)
        assert len({key.split("/")[0] for key in kept}) >= 3
        assert set(kept.values()) == {(own, mine)}, kept
        assert "runs at nice" not in main_log.read_text()
    finally:
        stop(machine)
        if main is not None:
            stop(main)
