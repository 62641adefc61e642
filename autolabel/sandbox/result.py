"""What one sandboxed run returns, and the errors that mean "no sandbox, nothing ran"."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class SandboxUnavailable(RuntimeError):
    """The sandbox could not be set up as asked; the program did not run.

    Raised when running as non-root (no uid to drop to), without pyseccomp or Landlock,
    with no interpreter the sandbox uid can read, or when any confinement step fails in the
    child. Pass ``allow_weaker=True`` to run with what is available instead.
    """


class Status(StrEnum):
    OK = "ok"  # exit status 0
    ERROR = "error"  # non-zero exit: an uncaught exception or sys.exit(n)
    TIMEOUT = "timeout"  # wall clock or CPU time ran out
    MEMORY = "memory"  # MemoryError at the address-space limit
    OUTPUT_LIMIT = "output_limit"  # stdout or stderr passed max_output_bytes
    KILLED = "killed"  # died by a signal (segfault, abort, a kill from outside)


@dataclass(frozen=True)
class SandboxResult:
    status: Status
    returncode: int | None
    stdout: str
    stderr: str
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    duration_ms: float = 0.0  # the program, from "ready" to exit
    setup_ms: float = 0.0  # spawn to "ready": the sandbox's own cost
    cpu_ms: float | None = None  # user + system CPU time of the whole process
    signal: int | None = None  # the signal that ended it, if one did
    exception: str | None = None  # type name of an uncaught exception
    completed: bool = False  # the program's code ran to its end (no exit, no exception)
    protections: tuple[str, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return self.status is Status.OK

    def evidence(self, limit: int = 4000) -> dict[str, object]:
        """A JSON-ready summary for a suggestion's evidence (outputs cut to ``limit``)."""
        return {
            "status": str(self.status),
            "returncode": self.returncode,
            "signal": self.signal,
            "exception": self.exception,
            "stdout": _tail(self.stdout, limit),
            "stderr": _tail(self.stderr, limit),
            "duration_ms": round(self.duration_ms, 1),
        }


def _tail(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return "…" + text[-limit:]
