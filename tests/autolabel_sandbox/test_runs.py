"""Ordinary programs run normally; the sandbox fails closed; its overhead is small."""

import os
import statistics
import sys
import textwrap
import time

import pytest

from autolabel.sandbox import Limits, SandboxUnavailable, Status, run_python, runner

FULL = {"rlimits", "uid", "landlock:fs", "seccomp"}


def test_print_and_exit_status(run):
    result = run("print('hello')\nprint(2 + 3)")
    assert result.status is Status.OK and result.returncode == 0
    assert result.stdout == "hello\n5\n"
    assert result.completed and result.exception is None
    assert set(result.protections) >= FULL


def test_stdin_is_the_given_text(run):
    code = "import sys\nn = int(input())\nprint(sum(map(int, sys.stdin.read().split())) * n)"
    result = run(code, stdin="2\n1 2 3\n4\n")
    assert result.stdout == "20\n"


def test_files_and_cwd_are_the_work_dir(run):
    code = textwrap.dedent(
        """
        import os, tempfile
        print(open("data/in.txt").read().strip())
        with open("out.txt", "w") as f:
            f.write("written")
        print(open("out.txt").read())
        with tempfile.NamedTemporaryFile("w", delete=False) as t:
            t.write("x")
        print(os.path.dirname(t.name) == os.getcwd() == os.environ["HOME"])
        print(os.getcwd())
        """
    )
    result = run(code, files={"data/in.txt": "given\n"})
    lines = result.stdout.splitlines()
    assert result.status is Status.OK, result.stderr
    assert lines[:3] == ["given", "written", "True"]
    assert not os.path.exists(lines[3]), "the work dir is removed after the run"


def test_runs_as_nobody_without_groups_or_capabilities(run):
    code = "import os\nprint(os.getuid(), os.geteuid(), os.getgid(), os.getgroups())"
    result = run(code)
    assert result.stdout.strip() == "65534 65534 65534 []"


def test_exceptions_exit_1_with_a_traceback_from_main(run):
    result = run("def f(x):\n    return 1 / x\n\nf(0)")
    assert result.status is Status.ERROR and result.returncode == 1
    assert result.exception == "ZeroDivisionError"
    assert result.stderr.startswith('Traceback (most recent call last):\n  File "main.py"')
    assert "line 2, in f" in result.stderr
    assert "bootstrap" not in result.stderr


def test_syntax_error_reads_like_python(run):
    result = run("x = (1,\n")
    assert result.exception == "SyntaxError"
    assert result.stderr.startswith('  File "main.py", line 1')


def test_sys_exit_is_an_exit_not_a_completion(run):
    ok = run("import sys\nprint('a')\nsys.exit(0)\nprint('b')")
    assert ok.status is Status.OK and ok.stdout == "a\n" and not ok.completed
    failed = run("import sys\nsys.exit(3)")
    assert failed.status is Status.ERROR and failed.returncode == 3


def test_threads_and_stdlib_work(run):
    code = textwrap.dedent(
        """
        import threading, json, decimal, datetime, fractions, re, random, heapq
        out = []
        threads = [threading.Thread(target=out.append, args=(i,)) for i in range(4)]
        for t in threads: t.start()
        for t in threads: t.join()
        print(sorted(out), json.dumps({"a": 1}), decimal.Decimal(1) / 4, datetime.date(2024, 1, 2))
        """
    )
    result = run(code)
    assert result.stdout == '[0, 1, 2, 3] {"a": 1} 0.25 2024-01-02\n', result.stderr


def test_a_program_may_signal_itself(run):
    code = textwrap.dedent(
        """
        import os, signal
        signal.signal(signal.SIGUSR1, lambda *a: print("got it"))
        os.kill(os.getpid(), signal.SIGUSR1)
        """
    )
    assert run(code).stdout == "got it\n"


# --- failing closed -------------------------------------------------------------------


def test_not_root_fails_closed(monkeypatch):
    monkeypatch.setattr(runner.os, "geteuid", lambda: 1000)
    with pytest.raises(SandboxUnavailable, match="not root"):
        run_python("print('must not run')")


def test_missing_pyseccomp_fails_closed(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyseccomp", None)  # import raises ImportError
    with pytest.raises(SandboxUnavailable, match="pyseccomp"):
        run_python("print('must not run')")


def test_root_uid_is_refused():
    with pytest.raises(SandboxUnavailable, match="must not be root"):
        run_python("pass", uid=0)


def test_a_failed_confinement_step_in_the_child_fails_closed(sandbox):
    broken = Limits(extra=(("RLIMIT_NO_SUCH_LIMIT", 1, 1),))
    with pytest.raises(SandboxUnavailable, match="setup failed"):
        run_python("print('must not run')", limits=broken)


def test_an_interpreter_nobody_can_read_is_refused(tmp_path):
    hidden = tmp_path / "private"
    hidden.mkdir(mode=0o700)
    (hidden / "python3").symlink_to(sys.executable)
    with pytest.raises(SandboxUnavailable, match="not world-executable"):
        run_python("pass", python=str(hidden / "python3"))


def test_allow_weaker_runs_and_says_what_was_missing(sandbox, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyseccomp", None)
    result = run_python("print('ran')", allow_weaker=True)
    assert result.stdout == "ran\n"
    assert "seccomp" not in result.protections and "uid" in result.protections


# --- cost -------------------------------------------------------------------------------


def test_overhead_per_run(run, capsys):
    run("pass")
    totals, setups = [], []
    for _ in range(15):
        started = time.perf_counter()
        result = run("pass")
        totals.append((time.perf_counter() - started) * 1000)
        setups.append(result.setup_ms)
    total, setup = statistics.median(totals), statistics.median(setups)
    with capsys.disabled():
        print(f"\nsandbox overhead: median {total:.1f} ms per run (spawn to ready {setup:.1f} ms)")
    assert total < 1000
