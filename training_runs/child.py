"""Run the trainer so that it, and every process it starts, dies with the worker. No Django.

    python -m training_runs.child PARENT_PID -- python -m training.train --config FILE
    python -m training_runs.child PARENT_PID -- accelerate launch -m training.train ...

The worker starts this in a new session, so this process leads a process group that holds
the trainer and, under `accelerate launch` / `torchrun`, all its ranks. Linux's
PR_SET_PDEATHSIG sends it SIGTERM when the worker dies (OOM killer, a hard time limit, a
redeploy); a SIGTERM (that, or a cancel) SIGKILLs the whole group, so a redelivered run never
finds an orphaned trainer still holding the GPU. The exit status is the trainer's: a trainer
killed by a signal makes this process die by the same signal, so the worker sees it.
"""

import ctypes
import os
import signal
import subprocess
import sys

PR_SET_PDEATHSIG = 1


def _kill_group(signum: int, frame: object) -> None:
    os.killpg(os.getpgrp(), signal.SIGKILL)


def main(argv: list[str]) -> int:
    parent, separator, *command = argv
    if separator != "--" or not command:
        print("usage: training_child PARENT_PID -- COMMAND...", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _kill_group)
    signal.signal(signal.SIGINT, _kill_group)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass
    if os.getppid() != int(parent):
        return 1  # the worker died before prctl took effect
    returncode = subprocess.call(command)
    if returncode < 0:
        if -returncode not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(-returncode, signal.SIG_DFL)
        os.kill(os.getpid(), -returncode)
    return returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
