"""Sampling profiles of a running gunicorn's workers with py-spy, and where their time went.

`py-spy record --nonblocking --format raw` on every worker process (non-idle threads only)
writes collapsed stacks; `summarize` turns them into the functions with the largest share of
the samples, inclusive (the function or anything it called) and own (the leaf frame).
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

FRAME = re.compile(r"^(?P<func>.*) \((?P<file>.*?)(?::\d+)?\)$")
OWN_CODE = ("/labeling/", "/annotate/", "/autolabel/")


def pyspy() -> str | None:
    found = shutil.which("py-spy") or Path(sys.executable).with_name("py-spy")
    return str(found) if found and Path(found).exists() else None


def start(server_pid: int, outdir: Path, *, rate: int = 100) -> list[subprocess.Popen]:
    """One recorder per worker process of the gunicorn whose master is `server_pid`."""
    import psutil

    exe = pyspy()
    if exe is None:
        raise RuntimeError("py-spy is not installed (pip install py-spy)")
    outdir.mkdir(parents=True, exist_ok=True)
    recorders = []
    for worker in psutil.Process(server_pid).children():
        recorders.append(
            subprocess.Popen(
                [
                    exe,
                    "record",
                    "--pid",
                    str(worker.pid),
                    "--rate",
                    str(rate),
                    "--nonblocking",
                    "--format",
                    "raw",
                    "--output",
                    str(outdir / f"worker-{worker.pid}.txt"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
        )
    return recorders


def stop(recorders: list[subprocess.Popen]) -> None:
    for r in recorders:
        r.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
    for r in recorders:
        try:
            r.wait(30)
        except subprocess.TimeoutExpired:
            r.kill()


def _short(frame: str) -> str:
    m = FRAME.match(frame)
    if not m:
        return frame
    path = m["file"]
    for marker in ("site-packages/", "/python3.11/", *OWN_CODE):
        if marker in path:
            path = (marker.strip("/") + "/" if marker in OWN_CODE else "") + path.split(marker)[-1]
            break
    return f"{m['func']} ({path})"


def summarize(files: list[Path], *, top: int = 15) -> str:
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for path in files:
        for line in path.read_text().splitlines():
            stack, _, n = line.rpartition(" ")
            if not stack or not n.isdigit():
                continue
            frames = [_short(f) for f in stack.split(";")]
            total += int(n)
            own[frames[-1]] += int(n)
            for frame in set(frames):
                inclusive[frame] += int(n)
    if not total:
        return "profile: no samples"
    lines = [f"profile of the gunicorn workers: {total} samples of busy threads"]
    lines.append("  inclusive, steplab's own functions:")
    own_code = tuple(m.strip("/") + "/" for m in OWN_CODE)
    mine = [(f, n) for f, n in inclusive.most_common() if f.split("(")[-1].startswith(own_code)]
    lines += [f"  {n / total:6.1%}  {f}" for f, n in mine[:top]]
    lines.append("  own time (leaf frames):")
    lines += [f"  {n / total:6.1%}  {f}" for f, n in own.most_common(top)]
    return "\n".join(lines)
