"""run_python: one program in a fresh, confined interpreter process.

The parent (this module) prepares a work dir, starts the bootstrap in ``child/`` as root
in a new session with a minimal environment, hands it its settings and a seccomp program
compiled for its pid, and then only reads: stdout and stderr up to a cap, and the status
pipe. The wall clock starts when the child reports "ready" (confinement done) and ends in
SIGKILL to the whole process group. Nothing here uses ``preexec_fn``, so it is safe from
threaded callers (Celery pools, the check worker pool).
"""

from __future__ import annotations

import contextlib
import marshal
import math
import os
import secrets
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .interpreter import find_interpreter
from .result import SandboxResult, SandboxUnavailable, Status

CHILD_DIR = str(Path(__file__).resolve().parent / "child")
NOBODY = 65534
SETUP_TIMEOUT_S = 15.0  # spawn to "ready"; generous for a loaded machine
MAIN = "main.py"
_READ_CHUNK = 65536


@dataclass(frozen=True)
class Limits:
    """Per-run rlimits besides the wall clock, memory and output caps (run_python's args)."""

    file_bytes: int = 16 << 20  # RLIMIT_FSIZE: the largest file the program may write
    open_files: int = 64
    threads: int = 64  # RLIMIT_NPROC: counts every task of the sandbox uid, system-wide
    extra: tuple[tuple[str, int, int], ...] = field(default_factory=tuple)

    def rlimits(self, timeout_s: float, memory_mb: int) -> list[tuple[str, int, int]]:
        cpu = math.ceil(timeout_s) + 1  # the wall clock normally ends a run first
        memory = memory_mb << 20
        return [
            ("RLIMIT_CORE", 0, 0),
            ("RLIMIT_CPU", cpu, cpu + 1),  # SIGXCPU, then SIGKILL
            ("RLIMIT_AS", memory, memory),
            ("RLIMIT_FSIZE", self.file_bytes, self.file_bytes),
            ("RLIMIT_NOFILE", self.open_files, self.open_files),
            ("RLIMIT_NPROC", self.threads, self.threads),
            ("RLIMIT_MEMLOCK", 0, 0),
            ("RLIMIT_MSGQUEUE", 0, 0),
            *self.extra,
        ]


@dataclass
class _Plan:
    uid: int | None
    gid: int | None
    seccomp: bool
    landlock: str  # "required" or "optional"
    python: str


def _plan(*, allow_weaker: bool, python: str | None, uid: int | None, gid: int | None) -> _Plan:
    missing: list[str] = []
    if os.geteuid() == 0:
        run_uid = NOBODY if uid is None else uid
        run_gid = NOBODY if gid is None else gid
        if run_uid == 0 or run_gid == 0:
            raise SandboxUnavailable("the sandbox uid and gid must not be root")
    else:
        run_uid = run_gid = None
        missing.append("not root, so the program cannot run as an unprivileged uid")
    try:
        import pyseccomp  # noqa: F401

        seccomp = True
    except (ImportError, RuntimeError, OSError) as exc:  # RuntimeError: no libseccomp
        seccomp = False
        missing.append(f"pyseccomp unavailable ({exc})")
    if missing and not allow_weaker:
        raise SandboxUnavailable("; ".join(missing) + " (pass allow_weaker=True to run anyway)")
    try:
        interpreter = find_interpreter(python)
    except FileNotFoundError as exc:
        raise SandboxUnavailable(str(exc)) from exc
    landlock = "optional" if allow_weaker else "required"
    return _Plan(run_uid, run_gid, seccomp, landlock, interpreter)


def _safe_relpath(name: str) -> PurePosixPath:
    path = PurePosixPath(name)
    if path.is_absolute() or not path.parts or ".." in path.parts or str(path) == MAIN:
        raise ValueError(f"file name {name!r} must be a relative path inside the work dir")
    return path


def _prepare_workdir(code: str, files: Mapping[str, str], plan: _Plan) -> str:
    workdir = tempfile.mkdtemp(prefix="steplab-sbx-")  # mode 0700
    try:
        entries = {PurePosixPath(MAIN): code}
        entries.update({_safe_relpath(k): v for k, v in files.items()})
        made = [workdir]
        for rel, text in entries.items():
            target = Path(workdir, rel)
            for parent in reversed(target.relative_to(workdir).parents[:-1]):
                directory = Path(workdir, parent)
                if not directory.exists():
                    directory.mkdir(mode=0o700)
                    made.append(str(directory))
            target.write_text(text, encoding="utf-8")
            made.append(str(target))
        if plan.uid is not None:
            for path in made:
                os.chown(path, plan.uid, plan.gid)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    return workdir


def _child_env(workdir: str) -> dict[str, str]:
    # Built from nothing: the parent's environment (secrets, DATABASE_URL) never passes.
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": workdir,
        "TMPDIR": workdir,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "MALLOC_ARENA_MAX": "2",  # fewer 64 MB arena reservations against RLIMIT_AS
    }


class _Streams:
    """Reads stdout, stderr and the status pipe without ever holding more than the cap,
    and notices the child's exit through a pidfd (no polling)."""

    def __init__(self, proc: subprocess.Popen[bytes], status_fd: int, cap: int) -> None:
        self.proc = proc
        self.cap = cap
        self.selector = selectors.DefaultSelector()
        self.buffers: dict[str, bytearray] = {"stdout": bytearray(), "stderr": bytearray()}
        self.truncated = {"stdout": False, "stderr": False}
        self.status = bytearray()
        assert proc.stdout is not None and proc.stderr is not None
        fds = {"stdout": proc.stdout.fileno(), "stderr": proc.stderr.fileno(), "status": status_fd}
        for name, fd in fds.items():
            os.set_blocking(fd, False)
            self.selector.register(fd, selectors.EVENT_READ, name)
        self.pidfd: int | None = None
        with contextlib.suppress(AttributeError, OSError):  # Linux < 5.3: poll instead
            self.pidfd = os.pidfd_open(proc.pid)
            self.selector.register(self.pidfd, selectors.EVENT_READ, "exit")
        self._exited = False

    @property
    def exited(self) -> bool:
        if self.pidfd is None and not self._exited:
            self._exited = self.proc.poll() is not None
        return self._exited

    @property
    def pipes_open(self) -> bool:
        return any(key.data != "exit" for key in self.selector.get_map().values())

    def pump(self, timeout: float) -> bool:
        """Read what is ready within ``timeout``; False once an output passed the cap."""
        if self.pidfd is None and not self.exited:
            timeout = min(timeout, 0.02)
        for key, _ in self.selector.select(max(timeout, 0.0)):
            if key.data == "exit":
                self.selector.unregister(key.fd)
                self._exited = True
                continue
            try:
                chunk = os.read(key.fd, _READ_CHUNK)
            except BlockingIOError:
                continue
            if not chunk:
                self.selector.unregister(key.fd)
                continue
            if key.data == "status":
                self.status += chunk[: 4096 - len(self.status)]
                continue
            buffer = self.buffers[key.data]
            room = self.cap - len(buffer)
            buffer += chunk[: max(room, 0)]
            if len(chunk) > room:
                self.truncated[key.data] = True
                return False
        return True

    def drain_status(self) -> None:
        """Read what the status pipe still holds (after the child is dead: never blocks)."""
        for key in list(self.selector.get_map().values()):
            if key.data == "status":
                with contextlib.suppress(BlockingIOError):
                    while chunk := os.read(key.fd, _READ_CHUNK):
                        self.status += chunk[: 4096 - len(self.status)]

    def status_lines(self) -> list[str]:
        return self.status.decode("utf-8", "replace").splitlines()

    def close(self) -> None:
        self.selector.close()
        if self.pidfd is not None:
            os.close(self.pidfd)


def _kill_group(proc: subprocess.Popen[bytes]) -> float | None:
    """SIGKILL the child's process group (if it still runs), reap it, and return the CPU
    seconds it used (None when it was already reaped)."""
    if proc.returncode is not None:
        return None
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)  # pgid == pid: it leads its own session
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    except ChildProcessError:  # reaped elsewhere
        proc.wait()
        return None
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def _send_settings(fd: int, settings: dict[str, object]) -> None:
    data = marshal.dumps(settings)
    try:
        with os.fdopen(fd, "wb") as ctl:
            ctl.write(data)
    except BrokenPipeError:
        pass  # the child died before reading; its status pipe tells the rest


def _status_from(
    streams: _Streams,
    proc: subprocess.Popen[bytes],
    nonce: str,
    *,
    timed_out: bool,
    over: bool,
    cpu_out: bool,
) -> tuple[Status, str | None, bool, int | None]:
    exception, completed = None, False
    for line in streams.status_lines():
        parts = line.split()
        if len(parts) >= 2 and parts[1] == nonce:
            if parts[0] == "done":
                completed = True
            elif parts[0] == "raised" and len(parts) == 3:
                exception = parts[2]
    rc = proc.returncode
    sig = -rc if rc is not None and rc < 0 else None
    if over:
        status = Status.OUTPUT_LIMIT
    elif timed_out or sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu_out):
        status = Status.TIMEOUT
    elif exception == "MemoryError":
        status = Status.MEMORY
    elif sig is not None:
        status = Status.KILLED
    elif rc == 0:
        status = Status.OK
    else:
        status = Status.ERROR
    return status, exception, completed, sig


def run_python(
    code: str,
    *,
    stdin: str = "",
    timeout_s: float = 5.0,
    memory_mb: int = 256,
    max_output_bytes: int = 64_000,
    files: Mapping[str, str] | None = None,
    allow_weaker: bool = False,
    limits: Limits | None = None,
    python: str | None = None,
    uid: int | None = None,
    gid: int | None = None,
    read_paths: Iterable[str] = (),
) -> SandboxResult:
    """Run ``code`` as ``main.py`` in a fresh work dir (its cwd) under the sandbox.

    ``files`` are extra text files (relative paths) placed beside it. The program runs as
    uid/gid 65534 (or ``uid``/``gid``) with rlimits, Landlock (writes only in the work dir,
    reads only the interpreter and system libraries plus ``read_paths``) and a seccomp
    filter (no sockets, processes, exec, namespaces, tracing). Raises SandboxUnavailable
    when any of that cannot be set up, unless ``allow_weaker`` (then ``protections`` on
    the result lists what was enforced).
    """
    if timeout_s <= 0 or memory_mb < 32 or max_output_bytes < 0:
        raise ValueError("timeout_s must be > 0, memory_mb >= 32, max_output_bytes >= 0")
    limits = limits or Limits()
    plan = _plan(allow_weaker=allow_weaker, python=python, uid=uid, gid=gid)
    workdir = _prepare_workdir(code, files or {}, plan)
    try:
        rlimits = limits.rlimits(timeout_s, memory_mb)
        return _run(plan, workdir, stdin, timeout_s, rlimits, max_output_bytes, read_paths)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _run(
    plan: _Plan,
    workdir: str,
    stdin: str,
    timeout_s: float,
    rlimits: list[tuple[str, int, int]],
    cap: int,
    read_paths: Iterable[str],
) -> SandboxResult:
    from .syscalls import build_filter

    nonce = secrets.token_hex(16)
    ctl_r, ctl_w = os.pipe()
    status_r, status_w = os.pipe()
    argv = [plan.python, "-I", "-S", "-B", "-X", "utf8", CHILD_DIR, str(ctl_r), str(status_w)]
    with tempfile.TemporaryFile() as stdin_file:
        stdin_file.write(stdin.encode("utf-8"))
        stdin_file.seek(0)
        started = time.monotonic()
        try:
            proc = subprocess.Popen(
                argv,
                stdin=stdin_file,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(ctl_r, status_w),
                close_fds=True,
                start_new_session=True,
                env=_child_env(workdir),
                cwd=workdir,
            )
        finally:
            os.close(ctl_r)
            os.close(status_w)
    streams = _Streams(proc, status_r, cap)
    try:
        try:
            program = build_filter(proc.pid) if plan.seccomp else None
        except BaseException:
            os.close(ctl_w)
            _kill_group(proc)
            raise
        _send_settings(
            ctl_w,
            {
                "workdir": workdir,
                "main": MAIN,
                "uid": plan.uid,
                "gid": plan.gid,
                "limits": rlimits,
                "landlock": plan.landlock,
                "read_paths": list(read_paths),
                "seccomp": program,
                "nonce": nonce,
            },
        )
        cpu_limit_s = next(soft for name, soft, _ in rlimits if name == "RLIMIT_CPU")
        return _supervise(proc, streams, nonce, started, timeout_s, cpu_limit_s)
    finally:
        _kill_group(proc)
        streams.close()
        os.close(status_r)
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()


def _setup_state(streams: _Streams) -> str:
    """The child's setup as reported so far: ready or pending; raises on a failure."""
    lines = streams.status_lines()
    if lines and lines[0].startswith("fail "):
        raise SandboxUnavailable(f"sandbox setup failed: {lines[0][5:]}")
    if lines and lines[0].startswith("ready"):
        return "ready"
    return "pending"


def _supervise(
    proc: subprocess.Popen[bytes],
    streams: _Streams,
    nonce: str,
    started: float,
    timeout_s: float,
    cpu_limit_s: float,
) -> SandboxResult:
    deadline = started + SETUP_TIMEOUT_S
    ready_at: float | None = None
    timed_out = over = False
    while True:
        if ready_at is None and _setup_state(streams) == "ready":
            ready_at = time.monotonic()
            deadline = ready_at + timeout_s
        if streams.exited and not streams.pipes_open:
            break
        now = time.monotonic()
        if now >= deadline:
            timed_out = True
            break
        if not streams.pump(min(deadline - now, 0.5)):
            over = True
            break
    cpu_s = _kill_group(proc)
    ended = time.monotonic()
    streams.drain_status()  # "ready" may sit unread behind output that hit the cap
    if ready_at is None:
        if _setup_state(streams) != "ready":
            if timed_out:
                raise SandboxUnavailable(f"sandbox setup took over {SETUP_TIMEOUT_S:.0f} s")
            detail = bytes(streams.buffers["stderr"]).decode("utf-8", "replace").strip()
            raise SandboxUnavailable(f"sandbox child exited before setup finished: {detail}")
        ready_at = ended
    first = streams.status_lines()[0]
    protections = tuple(filter(None, first[len("ready ") :].split(",")))
    cpu_out = cpu_s is not None and cpu_s >= cpu_limit_s
    status, exception, completed, sig = _status_from(
        streams, proc, nonce, timed_out=timed_out, over=over, cpu_out=cpu_out
    )
    return SandboxResult(
        status=status,
        returncode=proc.returncode,
        stdout=bytes(streams.buffers["stdout"]).decode("utf-8", "replace"),
        stderr=bytes(streams.buffers["stderr"]).decode("utf-8", "replace"),
        stdout_truncated=streams.truncated["stdout"],
        stderr_truncated=streams.truncated["stderr"],
        duration_ms=(ended - ready_at) * 1000,
        setup_ms=(ready_at - started) * 1000,
        cpu_ms=None if cpu_s is None else cpu_s * 1000,
        signal=sig,
        exception=exception,
        completed=completed,
        protections=protections,
    )
