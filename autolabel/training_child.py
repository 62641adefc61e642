"""Start the trainer so that it dies with the worker that launched it. No Django.

    python -m autolabel.training_child PARENT_PID -- python -m training.train --config FILE

Linux's PR_SET_PDEATHSIG survives exec: if the worker process is SIGKILLed (OOM killer, a
hard time limit, a redeploy), the kernel kills the trainer too, so a redelivered run never
finds an orphaned trainer still holding the GPU. Without prctl (not Linux) it just execs.
"""

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def main(argv: list[str]) -> int:
    parent, separator, *command = argv
    if separator != "--" or not command:
        print("usage: training_child PARENT_PID -- COMMAND...", file=sys.stderr)
        return 2
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    if os.getppid() != int(parent):
        return 1  # the worker died before prctl took effect
    os.execvp(command[0], command)
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
