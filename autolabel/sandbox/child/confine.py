"""Confinement steps for the sandboxed interpreter: limits, identity, no_new_privs, seccomp.

Stdlib only (this runs under the sandbox's interpreter, not the venv's). Each step raises
on failure; the bootstrap reports the failure to the parent and exits before any user
code runs, so a partial sandbox never runs a program.
"""

import ctypes
import os
import resource

_PR_SET_DUMPABLE = 4
_PR_GET_SECCOMP = 21
_PR_SET_SECCOMP = 22
_PR_SET_NO_NEW_PRIVS = 38
_PR_GET_NO_NEW_PRIVS = 39
_SECCOMP_MODE_FILTER = 2

_libc = ctypes.CDLL(None, use_errno=True)
_libc.prctl.restype = ctypes.c_int


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _prctl(option: int, *args: object) -> int:
    # prctl(2) is variadic: integers go as full unsigned longs, pointers as they are.
    values = [ctypes.c_ulong(a) if isinstance(a, int) else a for a in args]
    values += [ctypes.c_ulong(0)] * (4 - len(values))
    result = _libc.prctl(ctypes.c_int(option), *values)
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl({option}): {os.strerror(err)}")
    return result


def set_limits(limits: "list[tuple[str, int, int]]") -> None:
    """Apply (RLIMIT_NAME, soft, hard) triples; -1 means unlimited."""
    for name, soft, hard in limits:
        resource.setrlimit(getattr(resource, name), (soft, hard))


def drop_privileges(uid: int, gid: int) -> None:
    """Become uid/gid for real, effective and saved ids, with no supplementary groups."""
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if os.getresuid() != (uid, uid, uid) or os.getresgid() != (gid, gid, gid):
        raise OSError("the uid/gid did not change")
    if os.getgroups():
        raise OSError("supplementary groups remain")
    try:
        os.setuid(0)
    except PermissionError:
        pass
    else:
        raise OSError("could regain root after dropping privileges")
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(("CapPrm:", "CapEff:", "CapAmb:")) and int(line.split()[1], 16):
                raise OSError(f"capabilities remain: {line.strip()}")


def no_new_privs() -> None:
    """No setuid/file-capability gains on exec; not dumpable (same-uid processes cannot
    read this one's memory or /proc entries)."""
    _prctl(_PR_SET_NO_NEW_PRIVS, 1)
    _prctl(_PR_SET_DUMPABLE, 0)
    if _prctl(_PR_GET_NO_NEW_PRIVS) != 1:
        raise OSError("no_new_privs did not stick")


def load_seccomp(program: bytes) -> None:
    """Install a classic-BPF seccomp filter (raw ``struct sock_filter`` array)."""
    if not program or len(program) % 8:
        raise OSError("malformed seccomp program")
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    _prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog))
    if _prctl(_PR_GET_SECCOMP) != _SECCOMP_MODE_FILTER:
        raise OSError("the seccomp filter is not active")
