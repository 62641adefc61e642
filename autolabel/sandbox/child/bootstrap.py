"""The sandbox bootstrap: confine this interpreter, then run ``main.py`` in it.

Started (through ``__main__``) by autolabel.sandbox.runner as
``python3 -I -S -B <this dir> CTL_FD STATUS_FD``,
as root, in a new session, with a minimal environment and only the two pipe fds besides
stdin/stdout/stderr. It reads its settings (a marshal'd dict) from CTL_FD, applies every
confinement step in order, reports ``ready`` on STATUS_FD, and only then compiles and runs
the program in a fresh ``__main__``. Any setup failure is reported as ``fail`` and the
process exits before user code exists in it. One process, no exec: the seccomp filter can
deny execve outright.

Status lines after ``ready`` carry a per-run nonce so that a program writing to the
inherited fd cannot pass for the bootstrap by accident: ``done`` (the program's code ran
to its end) or ``raised <Type>`` (an uncaught exception). A program that introspects the
interpreter can still find the nonce; the parent treats these lines as the program's own
account of itself, never as a security boundary.
"""

import marshal
import os
import sys


def _status(fd: int, line: str) -> None:
    try:  # noqa: SIM105 - contextlib is one more import on every start
        os.write(fd, (line + "\n").encode())
    except OSError:
        pass  # the program closed or replaced the fd: it only loses its own account


def _read_all(fd: int) -> bytes:
    chunks = []
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            os.close(fd)
            return b"".join(chunks)
        chunks.append(chunk)


def _read_paths(extra: "list[str]") -> "list[str]":
    stdlib = os.path.dirname(os.__file__)
    paths = [stdlib, os.path.join(stdlib, "lib-dynload"), sys.base_prefix + "/lib"]
    paths += ["/usr", "/lib", "/lib64", "/etc/ld.so.cache", "/etc/localtime"]
    paths += ["/dev/urandom", "/dev/random", "/dev/zero"]
    return paths + list(extra)


def _confine(cfg: dict) -> str:
    import confine
    import landlock

    done = []
    workdir = cfg["workdir"]
    abi = landlock.abi_version() if cfg["landlock"] else 0
    if cfg["landlock"] == "required" and abi < 1:
        raise OSError("Landlock is not available in this kernel")
    confine.set_limits(cfg["limits"])
    done.append("rlimits")
    if cfg["uid"] is not None:
        confine.drop_privileges(cfg["uid"], cfg["gid"])
        done.append("uid")
    confine.no_new_privs()
    if abi:
        rules = [(workdir, -1 & ((1 << 64) - 1))]
        rules += [(p, landlock.READ) for p in _read_paths(cfg["read_paths"])]
        rules += [("/dev/null", landlock.READ_FILE | landlock.WRITE_FILE | landlock.TRUNCATE)]
        done += ["landlock:" + part for part in landlock.restrict(rules, abi)]
    if cfg["seccomp"] is not None:
        confine.load_seccomp(cfg["seccomp"])
        done.append("seccomp")
    for name in ("bootstrap", "confine", "landlock"):
        sys.modules.pop(name, None)
    return ",".join(done)


def _print_exception(exc: BaseException, skip_frames: int) -> None:
    import traceback

    tb = exc.__traceback__
    for _ in range(skip_frames):  # this bootstrap's frames: the traceback starts in main.py
        tb = tb.tb_next if tb is not None else None
    depth, walk = 0, tb
    while walk is not None and depth <= 100:
        depth, walk = depth + 1, walk.tb_next
    if depth > 100:  # deep recursion: formatting every frame could outlast the clock
        print("(traceback cut to its last 100 frames)", file=sys.stderr)
    traceback.print_exception(type(exc), exc, tb, limit=-100 if depth > 100 else None)


def _fail(status_fd: int, nonce: str, exc: BaseException, skip_frames: int) -> None:
    _status(status_fd, f"raised {nonce} {type(exc).__name__}")
    try:
        _print_exception(exc, skip_frames)
    finally:
        sys.stderr.flush()
        sys.exit(1)


def main() -> None:
    """Confine, report, run. Called from ``__main__``; never returns on failure."""
    ctl_fd, status_fd = int(sys.argv[1]), int(sys.argv[2])
    try:
        cfg = marshal.loads(_read_all(ctl_fd))
        os.chdir(cfg["workdir"])
        with open(cfg["main"], "rb") as handle:
            source = handle.read()
        protections = _confine(cfg)
    except BaseException as exc:  # noqa: BLE001 - anything here means no sandbox
        _status(status_fd, f"fail {type(exc).__name__}: {exc}".replace("\n", " "))
        os._exit(70)
    nonce = cfg["nonce"]
    _status(status_fd, "ready " + protections)

    import builtins
    import types

    module = types.ModuleType("__main__")
    module.__file__ = os.path.join(cfg["workdir"], cfg["main"])
    module.__builtins__ = builtins
    sys.modules["__main__"] = module
    sys.argv = [cfg["main"]]
    sys.path[0] = cfg["workdir"]
    try:
        code = compile(source, cfg["main"], "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:  # ValueError: null bytes in the source
        _fail(status_fd, nonce, exc, skip_frames=99)  # no frames: like `python main.py`
    del source
    try:
        exec(code, module.__dict__)
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - report like the interpreter would
        _fail(status_fd, nonce, exc, skip_frames=1)
    _status(status_fd, f"done {nonce}")
