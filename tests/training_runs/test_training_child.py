"""training_runs.child: the trainer and everything it starts die with the worker; its
exit status (a signal included) reaches the worker; the launcher setting builds the command."""

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from training_runs.execution import trainer_command

ROOT = Path(__file__).resolve().parents[2]


def _pids_with(marker: str) -> list[int]:
    """Live (not zombie) processes whose command line contains `marker`."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(int(proc.name))
    return found


def _wait_for(predicate, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_the_trainer_and_its_ranks_die_with_the_worker():
    """A 'launcher' that starts two 'ranks', as accelerate launch or torchrun would."""
    marker = f"61.{uuid.uuid4().int % 10**6}"
    launcher = f"sleep {marker} & sleep {marker} & wait"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, subprocess, sys;"
            "p = subprocess.Popen([sys.executable, '-m', 'training_runs.child',"
            f" str(os.getpid()), '--', 'sh', '-c', {launcher!r}], start_new_session=True);"
            "p.wait()",
        ],
        cwd=ROOT,
    )
    try:
        assert _wait_for(lambda: len(_pids_with(marker)) >= 3), _pids_with(marker)  # sh + 2 ranks
        worker.kill()  # SIGKILL: no cleanup code of the worker runs
        worker.wait()
        assert _wait_for(lambda: not _pids_with(marker), 10), "ranks outlived their worker"
    finally:
        for pid in _pids_with(marker):
            os.kill(pid, signal.SIGKILL)


def _child(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "training_runs.child", str(os.getpid()), "--", *command],
        cwd=ROOT,
        timeout=60,
    )


def test_the_exit_status_and_a_killing_signal_reach_the_worker():
    assert _child(sys.executable, "-c", "raise SystemExit(3)").returncode == 3
    assert _child(sys.executable, "-c", "pass").returncode == 0
    oom = "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"
    assert _child(sys.executable, "-c", oom).returncode == -signal.SIGKILL


def test_a_wrong_parent_refuses_to_start():
    result = subprocess.run(
        [sys.executable, "-m", "training_runs.child", "1", "--", "true"], cwd=ROOT
    )
    assert result.returncode == 1


def test_the_launcher_setting(settings, tmp_path):
    config = tmp_path / "c.json"
    plain = trainer_command(config)
    assert plain[:5] == [sys.executable, "-m", "training_runs.child", str(os.getpid()), "--"]
    assert plain[5:] == [sys.executable, "-m", "training.train", "--config", str(config)]
    settings.TRAINING_LAUNCHER = "accelerate launch --config_file 'my configs/fsdp.yaml'"
    launched = trainer_command(config)
    assert launched[5:] == [
        "accelerate",
        "launch",
        "--config_file",
        "my configs/fsdp.yaml",
        "-m",
        "training.train",
        "--config",
        str(config),
    ]
