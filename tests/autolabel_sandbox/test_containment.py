"""Attacks a model-written program could make; each asserts what concretely stayed contained.

Network tests only ever target 127.0.0.1.
"""

import os
import socket
import subprocess
import textwrap
import time
import uuid
from pathlib import Path

import psutil
import pytest

from autolabel.sandbox import Status, runner
from autolabel.sandbox.runner import CHILD_DIR, NOBODY

REPO = Path(__file__).resolve().parents[2]


# The sandboxes this test started: each child leads a session of its own
# (start_new_session), which every process it forks keeps, reparented or not.
_SESSIONS: set[int] = set()


@pytest.fixture(autouse=True)
def _sandbox_sessions(monkeypatch):
    """Record the session of every sandbox this test starts, so the leftover check looks at
    those only: another xdist worker's sandbox may be running at the same moment."""
    _SESSIONS.clear()
    popen = subprocess.Popen

    def recording_popen(*args, **kwargs):
        proc = popen(*args, **kwargs)
        _SESSIONS.add(proc.pid)
        return proc

    monkeypatch.setattr(runner.subprocess, "Popen", recording_popen)
    yield
    _SESSIONS.clear()


def _session(pid: int) -> int | None:
    try:
        return os.getsid(pid)
    except OSError:  # gone meanwhile
        return None


def _leftover_children() -> list[psutil.Process]:
    """Sandbox processes (nobody, the child program) still alive in a session this test
    started."""
    assert _SESSIONS, "no sandbox was started through runner.subprocess.Popen"
    found = []
    for proc in psutil.process_iter(["uids", "cmdline"]):
        info = proc.info
        ours = info["uids"] and info["uids"].real == NOBODY
        if ours and CHILD_DIR in (info["cmdline"] or []) and _session(proc.pid) in _SESSIONS:
            found.append(proc)
    return found


@pytest.fixture
def outside_paths():
    name = f"steplab-sbx-escape-{uuid.uuid4().hex}"
    paths = [
        Path("/tmp") / name,
        Path("/var/tmp") / name,
        Path("/dev/shm") / name,
        REPO / name,
        Path.home() / name,
        Path("/") / name,
    ]
    yield paths
    for path in paths:
        path.unlink(missing_ok=True)


def test_writes_outside_the_work_dir_fail(run, outside_paths):
    code = textwrap.dedent(
        f"""
        import os
        for path in {[str(p) for p in outside_paths]!r}:
            try:
                with open(path, "w") as f:
                    f.write("escaped")
                print("WROTE", path)
            except OSError as exc:
                print("denied", type(exc).__name__)
            try:
                os.mkdir(path + ".d")
                print("MADE", path)
            except OSError:
                pass
        """
    )
    result = run(code)
    assert "WROTE" not in result.stdout and "MADE" not in result.stdout
    assert result.stdout.count("denied PermissionError") == len(outside_paths)
    for path in outside_paths:
        assert not path.exists() and not Path(str(path) + ".d").exists()


def test_the_parent_environment_does_not_reach_the_child(run, monkeypatch):
    secret = f"s3cr3t-{uuid.uuid4().hex}"
    monkeypatch.setenv("STEPLAB_TEST_SECRET", secret)
    code = textwrap.dedent(
        """
        import os
        print(dict(os.environ))
        for path in ("/proc/self/environ", f"/proc/{os.getppid()}/environ", "/proc/1/environ"):
            try:
                print(open(path, "rb").read())
            except OSError as exc:
                print("denied", path, type(exc).__name__)
        """
    )
    result = run(code)
    assert secret not in result.stdout + result.stderr
    assert "STEPLAB_TEST_SECRET" not in result.stdout
    assert result.stdout.count("denied") == 3


def test_secret_files_cannot_be_read(run, tmp_path):
    private = tmp_path / "root-only.txt"
    private.write_text("root secret")
    private.chmod(0o600)
    # World-readable by its permissions: only Landlock keeps the program out.
    public = Path("/tmp") / f"steplab-sbx-readable-{uuid.uuid4().hex}.txt"
    public.write_text("readable secret")
    public.chmod(0o644)
    settings = REPO / "annotate" / "settings" / "base.py"
    try:
        code = textwrap.dedent(
            f"""
            for path in {[str(private), str(public), str(settings), "/etc/shadow", "/root"]!r}:
                try:
                    print(open(path).read()[:40])
                except OSError as exc:
                    print("denied", type(exc).__name__)
            """
        )
        result = run(code)
    finally:
        public.unlink()
    assert "secret" not in result.stdout and "import" not in result.stdout
    assert result.stdout.count("denied") == 5


def test_no_connection_reaches_a_loopback_listener(run):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.5)
    host, port = listener.getsockname()
    code = textwrap.dedent(
        f"""
        import socket
        addr = ({host!r}, {port})
        attempts = [
            lambda: socket.create_connection(addr, timeout=1),
            lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", addr),
            lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM),
            lambda: socket.socketpair(),
        ]
        for attempt in attempts:
            try:
                attempt()
                print("CONNECTED")
            except OSError as exc:
                print("denied", type(exc).__name__)
        """
    )
    try:
        result = run(code)
        with pytest.raises(TimeoutError):
            listener.accept()
    finally:
        listener.close()
    assert "CONNECTED" not in result.stdout
    assert result.stdout.count("denied PermissionError") == 4


def test_the_leftover_check_sees_a_running_sandbox_of_this_test(run):
    """The check is scoped to this test's sandboxes, not blind: one still running is found."""
    import threading

    thread = threading.Thread(target=run, args=("import time\ntime.sleep(4)",), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not (_SESSIONS and _leftover_children()):
        assert time.monotonic() < deadline, "the running sandbox was not seen"
        time.sleep(0.05)
    thread.join(30)
    assert not _leftover_children()


def test_fork_bomb_makes_no_process(run):
    code = "import os\nwhile True:\n    os.fork()"
    result = run(code, timeout_s=3)
    assert result.status is Status.ERROR and result.exception == "PermissionError"
    assert not _leftover_children()


def test_subprocesses_and_exec_are_refused(run):
    marker = Path("/tmp") / f"steplab-sbx-spawned-{uuid.uuid4().hex}"
    code = textwrap.dedent(
        f"""
        import os, subprocess, multiprocessing, pty
        attempts = {{
            "subprocess": lambda: subprocess.run(["/bin/sh", "-c", "touch {marker}"]),
            "system": lambda: os.system("touch {marker}") == 0 or 1 / 0,
            "posix_spawn": lambda: os.posix_spawn("/bin/touch", ["touch", "{marker}"], {{}}),
            "execv": lambda: os.execv("/bin/touch", ["touch", "{marker}"]),
            "multiprocessing": lambda: multiprocessing.Process(target=print).start(),
            "pty": lambda: pty.fork(),
        }}
        for name, attempt in attempts.items():
            try:
                attempt()
                print("SPAWNED", name)
            except (OSError, ZeroDivisionError) as exc:
                print("denied", name)
        """
    )
    result = run(code)
    assert "SPAWNED" not in result.stdout, result.stdout
    assert result.stdout.count("denied") == 6, result.stderr
    assert not marker.exists()
    assert not _leftover_children()


def test_tracing_namespaces_and_other_processes_are_refused(run):
    code = textwrap.dedent(
        """
        import ctypes, os, signal
        libc = ctypes.CDLL(None, use_errno=True)
        PTRACE_ATTACH, CLONE_NEWUSER, CLONE_NEWNET = 16, 0x10000000, 0x40000000
        print("ptrace", libc.ptrace(PTRACE_ATTACH, os.getppid(), 0, 0), ctypes.get_errno())
        print("unshare", libc.unshare(CLONE_NEWUSER | CLONE_NEWNET), ctypes.get_errno())
        for pid in (1, os.getppid()):
            try:
                os.kill(pid, signal.SIGKILL)
                print("KILLED", pid)
            except PermissionError:
                print("denied kill")
        try:
            os.setuid(0)
            print("ROOT")
        except PermissionError:
            print("denied setuid")
        """
    )
    result = run(code)
    lines = result.stdout.splitlines()
    assert lines[0] == "ptrace -1 1" and lines[1] == "unshare -1 1", result.stdout
    assert lines[2:] == ["denied kill", "denied kill", "denied setuid"]


def test_memory_bomb_is_stopped_at_the_limit(run):
    code = "blocks = []\nwhile True:\n    blocks.append(bytearray(10 << 20))"
    started = time.monotonic()
    result = run(code, memory_mb=128, timeout_s=10)
    assert result.status is Status.MEMORY and result.exception == "MemoryError"
    assert time.monotonic() - started < 5


def test_cpu_loop_is_killed_at_the_wall_clock(run):
    started = time.monotonic()
    result = run("while True:\n    pass", timeout_s=1)
    elapsed = time.monotonic() - started
    assert result.status is Status.TIMEOUT and result.signal == 9
    assert 0.9 < elapsed < 3
    assert not _leftover_children()


def test_ignoring_sigxcpu_still_dies_at_the_hard_cpu_limit(run):
    # A program that ignores SIGXCPU still dies at the hard CPU limit; the wall clock is
    # far away, so only RLIMIT_CPU can end this run.
    code = textwrap.dedent(
        """
        import resource, signal
        signal.signal(signal.SIGXCPU, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_CPU, (1, 1))
        while True:
            pass
        """
    )
    started = time.monotonic()
    result = run(code, timeout_s=20)
    assert result.status is Status.KILLED and result.signal == 9
    assert time.monotonic() - started < 5


def test_huge_output_is_cut_at_the_cap(run):
    result = run("while True:\n    print('x' * 1000)", max_output_bytes=10_000)
    assert result.status is Status.OUTPUT_LIMIT
    assert result.stdout_truncated and len(result.stdout) == 10_000
    assert not _leftover_children()


def test_huge_stderr_is_cut_too(run):
    result = run("import sys\nsys.stderr.write('e' * 10**6)", max_output_bytes=5_000)
    assert result.status is Status.OUTPUT_LIMIT and result.stderr_truncated
    assert len(result.stderr) == 5_000


def test_infinite_recursion(run):
    plain = run("def f():\n    return f()\nf()")
    assert plain.status is Status.ERROR and plain.exception == "RecursionError"
    assert len(plain.stderr) < 20_000
    deep = run(
        "import sys\nsys.setrecursionlimit(10**8)\ndef f():\n    return f()\nf()",
        timeout_s=2,
        memory_mb=96,
    )
    assert deep.status in (Status.ERROR, Status.MEMORY, Status.TIMEOUT, Status.KILLED)
    assert not _leftover_children()


def test_a_program_ignoring_sigterm_is_still_killed(run):
    code = textwrap.dedent(
        """
        import signal, time
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGXCPU):
            signal.signal(sig, signal.SIG_IGN)
        print("ignoring", flush=True)
        while True:
            time.sleep(0.01)
        """
    )
    result = run(code, timeout_s=0.5)
    assert result.status is Status.TIMEOUT and result.stdout == "ignoring\n"
    assert not _leftover_children()


def test_sleeping_past_the_wall_clock(run):
    started = time.monotonic()
    result = run("import time\ntime.sleep(60)", timeout_s=0.5)
    assert result.status is Status.TIMEOUT
    assert time.monotonic() - started < 3


def test_closing_its_pipes_does_not_outlive_the_clock(run):
    code = textwrap.dedent(
        """
        import os, time
        for fd in range(0, 10):
            try:
                os.close(fd)
            except OSError:
                pass
        time.sleep(60)
        """
    )
    started = time.monotonic()
    result = run(code, timeout_s=0.5)
    assert result.status is Status.TIMEOUT and time.monotonic() - started < 3


def test_file_size_is_capped(run):
    result = run("open('big.bin', 'wb').write(b'x' * (32 << 20))", timeout_s=5)
    assert result.status is Status.ERROR and "File too large" in result.stderr


def test_no_core_dump_and_a_segfault_is_reported(run):
    result = run("import ctypes\nctypes.string_at(0)")
    assert result.status is Status.KILLED and result.signal == 11
    assert not any(name.startswith("core") for name in os.listdir("."))
