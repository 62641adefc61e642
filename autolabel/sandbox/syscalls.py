"""The seccomp policy, compiled to classic BPF in the parent with pyseccomp.

The child loads the bytes with one ``prctl`` call, so it needs neither libseccomp's
``find_library`` (a subprocess) nor the venv. The filter is per run because the signal
rules name the child's own pid.

Default allow, with a deny list: the child is already unprivileged (no capabilities,
``no_new_privs``) and confined by Landlock, so the filter removes what an unprivileged
process could still do to reach out or linger: sockets, new processes and programs,
namespaces, tracing, SysV/POSIX IPC objects that outlive it, io_uring (which bypasses the
filter), and signals or priority changes aimed at other processes of the same uid
(concurrent sandboxes share it). Denied calls fail with EPERM so a program sees an
ordinary ``PermissionError``; a syscall from a foreign ABI (int 0x80, x32) kills it.
"""

from __future__ import annotations

import errno
import tempfile

CLONE_THREAD = 0x00010000
_CLONE_NAMESPACES = (
    0x00020000,  # CLONE_NEWNS
    0x02000000,  # CLONE_NEWCGROUP
    0x04000000,  # CLONE_NEWUTS
    0x08000000,  # CLONE_NEWIPC
    0x10000000,  # CLONE_NEWUSER
    0x20000000,  # CLONE_NEWPID
    0x40000000,  # CLONE_NEWNET
)

DENIED = (
    # network, and any other socket
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    # new processes and programs (threads are allowed: see clone below)
    "fork", "vfork", "execve", "execveat",
    # namespaces, mounts, roots
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "mount_setattr",
    "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick",
    # tracing and reading other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_open",
    "pidfd_getfd", "pidfd_send_signal", "process_madvise", "tkill",
    "move_pages", "migrate_pages",
    # kernel objects that outlive the process, or bypass this filter
    "shmget", "shmat", "shmctl", "shmdt", "msgget", "msgsnd", "msgrcv", "msgctl",
    "semget", "semop", "semtimedop", "semctl", "mq_open", "mq_unlink", "mq_timedsend",
    "mq_timedreceive", "mq_notify", "mq_getsetattr", "memfd_create", "memfd_secret",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "userfaultfd",
    "add_key", "request_key", "keyctl", "bpf", "perf_event_open", "fanotify_init",
    "name_to_handle_at", "open_by_handle_at", "mknod", "mknodat",
    # other processes' scheduling
    "setpriority", "ioprio_set", "sched_setscheduler", "sched_setparam", "sched_setattr",
    # privileged; denied outright as defence in depth
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
    "reboot", "swapon", "swapoff", "acct", "quotactl", "syslog", "modify_ldt", "iopl",
    "ioperm", "personality", "uselib", "vhangup", "lookup_dcookie",
)  # fmt: skip


def _add(flt: object, action: int, name: str, *args: object) -> None:
    import pyseccomp

    number = pyseccomp.resolve_syscall(pyseccomp.Arch.NATIVE, name)
    if number == -1:  # a name libseccomp does not know: a typo must not weaken the filter
        raise OSError(f"unknown syscall name {name!r}")
    flt.add_rule(action, number, *args)  # type: ignore[attr-defined]


def build_filter(pid: int) -> bytes:
    """The BPF program (raw ``struct sock_filter`` array) for the child ``pid``.

    Raises ImportError when pyseccomp (or libseccomp) is missing, OSError when a rule
    cannot be compiled: the caller fails closed on either.
    """
    import pyseccomp as sc

    flt = sc.SyscallFilter(sc.ALLOW)
    flt.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)
    deny = sc.ERRNO(errno.EPERM)
    for name in DENIED:
        _add(flt, deny, name)
    # Threads only: a clone without CLONE_THREAD is a new process; none may make namespaces.
    _add(flt, deny, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))
    for flag in _CLONE_NAMESPACES:
        _add(flt, deny, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    # clone3 passes its flags in memory a filter cannot read; ENOSYS makes glibc fall back
    # to clone, which the rules above can check.
    _add(flt, sc.ERRNO(errno.ENOSYS), "clone3")
    # Signals only to this process, resource limits and affinity only for itself (pid 0).
    # libseccomp takes one comparison per argument and rule, so kill(0) and kill(-pid),
    # which would also reach only this process, are denied too.
    for name in ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"):
        _add(flt, deny, name, sc.Arg(0, sc.NE, pid))
    for name in ("prlimit64", "sched_setaffinity"):
        _add(flt, deny, name, sc.Arg(0, sc.NE, 0))
    with tempfile.TemporaryFile() as out:
        flt.export_bpf(out)
        out.seek(0)
        program = out.read()
    if not program or len(program) % 8:
        raise OSError("libseccomp exported an empty or malformed BPF program")
    return program
