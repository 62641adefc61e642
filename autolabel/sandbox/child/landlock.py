"""Landlock through ctypes: confine this process's file access to a few trees.

Runs in the sandboxed interpreter (stdlib only, any Python 3.8+). Landlock is an allow
list: every access right the ruleset *handles* is denied except beneath the paths a rule
grants it for. Writing is granted only in the work dir; reading only in the interpreter's
and the system libraries' trees and a few device and /etc files; nothing else is visible
(not /proc, /home, /root, /work, /tmp). From ABI 4 TCP bind/connect are denied, from ABI
6 signals and abstract unix sockets are scoped to this process.
"""

import ctypes
import os

_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
TRUNCATE, IOCTL_DEV = 1 << 14, 1 << 15
_FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
READ = EXECUTE | READ_FILE | READ_DIR
_NET_TCP = 0b11  # BIND_TCP | CONNECT_TCP, ABI 4
_SCOPE_ALL = 0b11  # ABSTRACT_UNIX_SOCKET | SIGNAL, ABI 6


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def _syscall(number: int, *args: object) -> int:
    # syscall(2) is variadic: pass every integer as a full long, never a default C int.
    return _libc.syscall(
        ctypes.c_long(number), *(ctypes.c_long(a) if isinstance(a, int) else a for a in args)
    )


def _check(result: int, what: str) -> int:
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"landlock {what}: {os.strerror(err)}")
    return result


def abi_version() -> int:
    """The kernel's Landlock ABI, 0 when Landlock is missing or disabled."""
    result = _syscall(_SYS_CREATE_RULESET, None, 0, _CREATE_RULESET_VERSION)
    return max(result, 0)


def _fs_mask(abi: int) -> int:
    return _FS_BY_ABI[max(k for k in _FS_BY_ABI if k <= abi)]


def restrict(rules: "list[tuple[str, int]]", abi: int) -> "list[str]":
    """Confine this process (and its future threads) to ``rules``: (path, rights) pairs.

    Paths that do not exist are skipped. Needs no_new_privs (or CAP_SYS_ADMIN). Returns
    what was enforced, for the run's record.
    """
    handled = _fs_mask(abi)
    attr = _RulesetAttr(handled, 0, 0)
    size = ctypes.sizeof(ctypes.c_uint64)
    enforced = ["fs"]
    if abi >= 4:
        attr.handled_access_net = _NET_TCP
        size = 2 * ctypes.sizeof(ctypes.c_uint64)
        enforced.append("tcp")
    if abi >= 6:
        attr.scoped = _SCOPE_ALL
        size = ctypes.sizeof(_RulesetAttr)
        enforced.append("signals")
    ruleset = _check(
        _syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), size, 0),
        "create_ruleset",
    )
    try:
        for path, rights in rules:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except FileNotFoundError:
                continue
            try:
                if not os.path.isdir(path):
                    rights &= FILE_RIGHTS
                rule = _PathBeneathAttr(rights & handled, fd)
                _check(
                    _syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0),
                    f"add_rule {path}",
                )
            finally:
                os.close(fd)
        _check(_syscall(_SYS_RESTRICT_SELF, ruleset, 0), "restrict_self")
    finally:
        os.close(ruleset)
    return enforced
