"""Which Python the sandbox runs: one the unprivileged uid can read and execute.

The venv's interpreter often lives under /root (pyenv), which uid 65534 cannot enter, so
the sandbox runs a system interpreter by default. It starts with ``-I -S``: standard
library only, no site-packages, no user site, no PYTHON* variables.
"""

from __future__ import annotations

import os
import stat
import sys
import sysconfig

ENV_VAR = "STEPLAB_SANDBOX_PYTHON"
_SYSTEM_CANDIDATES = ("/usr/bin/python3", "/usr/local/bin/python3")


def world_accessible(path: str, *, directory: bool = False) -> bool:
    """True when any uid can reach ``path`` (every parent directory o+x) and read it
    (o+r; o+x too for an executable or a directory)."""
    path = os.path.realpath(path)
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    need = stat.S_IROTH | stat.S_IXOTH
    if (mode & need) != need or (directory and not stat.S_ISDIR(mode)):
        return False
    parent = os.path.dirname(path)
    while True:
        try:
            if not os.stat(parent).st_mode & stat.S_IXOTH:
                return False
        except OSError:
            return False
        if parent == "/":
            return True
        parent = os.path.dirname(parent)


def find_interpreter(explicit: str | None = None) -> str:
    """The interpreter to run: ``explicit``, else $STEPLAB_SANDBOX_PYTHON, else this
    process's interpreter when its binary and standard library are world-readable, else a
    system python3. Raises FileNotFoundError when none qualifies."""
    chosen = explicit or os.environ.get(ENV_VAR)
    if chosen:
        if not world_accessible(chosen):
            raise FileNotFoundError(f"sandbox interpreter {chosen} is not world-executable")
        return os.path.realpath(chosen)
    own = os.path.realpath(sys.executable)
    if world_accessible(own) and world_accessible(sysconfig.get_path("stdlib"), directory=True):
        return own
    for candidate in _SYSTEM_CANDIDATES:
        if world_accessible(candidate):
            return os.path.realpath(candidate)
    raise FileNotFoundError(
        f"no Python that an unprivileged uid can run; set {ENV_VAR} to a world-readable python3"
    )
