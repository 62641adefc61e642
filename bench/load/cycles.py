"""Claim -> submit cycles through the HTTP API with no think time, and their latencies.

Each simulated annotator loops: `POST /api/projects/<id>/queue/next/`, then
`POST /api/annotations/<id>/submit/` with a rating for every step (drawn from the project's
scale), until a budget of cycles shared by all annotators of the run is spent. Annotators are
threads; `processes > 1` spreads them over forked processes so that the client's own CPU and
GIL are not what limits the run. Every process reports the CPU it used.

With `submit_next` the loop is the labeling page's: the submit asks for `next` and its answer
carries the next task, so after each annotator's first claim a cycle is one request (its
latency is recorded as the submit's and the cycle's; claim_s holds the first claims only).

Claims are recorded as bench.load.annotators.Claim windows (claim answered .. submit sent), so
its double-hold check applies unchanged.
"""

from __future__ import annotations

import multiprocessing
import random
import resource
import statistics
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field

from bench.load.annotators import Claim
from bench.load.lean_http import LeanClient


@dataclass
class CycleLog:
    """What one run (or one process of it) did: latencies in seconds, claims, errors, CPU."""

    claim_s: list[float] = field(default_factory=list)
    submit_s: list[float] = field(default_factory=list)
    cycle_s: list[float] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    failures: list[str] = field(default_factory=list)
    cpu_s: list[float] = field(default_factory=list)  # per client process
    started: float = float("inf")  # monotonic (system-wide on Linux): first claim sent
    ended: float = 0.0  # last submit answered

    def merge(self, other: CycleLog) -> None:
        self.claim_s += other.claim_s
        self.submit_s += other.submit_s
        self.cycle_s += other.cycle_s
        self.claims += other.claims
        for key, n in other.errors.items():
            self.errors[key] += n
        self.failures += other.failures
        self.cpu_s += other.cpu_s
        self.started = min(self.started, other.started)
        self.ended = max(self.ended, other.ended)

    @property
    def wall_s(self) -> float:
        return max(self.ended - self.started, 1e-9)

    @property
    def cycles_per_s(self) -> float:
        return len(self.cycle_s) / self.wall_s

    def picklable(self) -> CycleLog:
        self.errors = dict(self.errors)  # a defaultdict's lambda does not pickle
        return self


def percentile_ms(values: list[float], q: int) -> float:
    """The q-th percentile in milliseconds (inclusive method; nan for no values)."""
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0] * 1000
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] * 1000


class Budget:
    """Cycles left to start, shared by threads and forked processes."""

    def __init__(self, cycles: int) -> None:
        self._left = multiprocessing.get_context("fork").Value("i", cycles)

    def take(self) -> bool:
        with self._left.get_lock():
            if self._left.value <= 0:
                return False
            self._left.value -= 1
            return True

    def give_back(self) -> None:
        with self._left.get_lock():
            self._left.value += 1


def _annotate(
    *,
    client: LeanClient,
    user: str,
    project_id: int,
    budget: Budget,
    log: CycleLog,
    lock: threading.Lock,
    rng: random.Random,
    submit_next: bool = False,
) -> None:
    task, arrived = None, 0.0  # with submit_next: the task the last submit's answer brought
    while budget.take():
        t0 = time.monotonic()
        claimed_here = task is None
        if claimed_here:
            r = client.post(f"/api/projects/{project_id}/queue/next/")
            arrived = time.monotonic()
            if r.status_code != 200:
                budget.give_back()
                with lock:
                    log.errors[f"claim {r.status_code}"] += 1
                return  # 204: nothing left for this user; anything else: the run is broken
            task = r.json()
        t1 = time.monotonic()
        claim = Claim(
            user=user,
            solution_id=task["solution"]["id"],
            annotation_id=task["annotation"]["id"],
            held_from=arrived,
        )
        values = task["project"]["rating_values"]
        labels = {step["id"]: rng.choice(values) for step in task["solution"]["steps"]}
        body = {
            "version": task["annotation"]["version"],
            "labels": [{"step_id": s, "rating": v} for s, v in labels.items()],
            "request_id": str(uuid.uuid4()),
            "next": submit_next,
        }
        claim.held_until = t2 = time.monotonic()
        r = client.post(f"/api/annotations/{claim.annotation_id}/submit/", json=body)
        t3 = time.monotonic()
        task = r.json().get("next_task") if submit_next and r.status_code == 200 else None
        arrived = t3
        nothing_left = submit_next and r.status_code == 200 and task is None
        with lock:
            log.claims.append(claim)
            if claimed_here:
                log.claim_s.append(t1 - t0)
            log.started = min(log.started, t0)
            log.ended = max(log.ended, t3)
            if r.status_code != 200:
                log.errors[f"submit {r.status_code}"] += 1
                continue
            claim.submitted_labels = labels
            log.submit_s.append(t3 - t2)
            log.cycle_s.append(t3 - t0)
        if nothing_left and budget.take():
            budget.give_back()  # cycles are left but nothing for this user: as a 204 above
            with lock:
                log.errors["claim 204"] += 1
            return


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _run_threads(
    *,
    base_url: str,
    tokens: list[tuple[str, str]],
    project_id: int,
    budget: Budget,
    seed: int,
    submit_next: bool = False,
) -> CycleLog:
    log, lock = CycleLog(), threading.Lock()

    def target(user: str, token: str, index: int) -> None:
        headers = {"Authorization": f"Token {token}"}
        try:
            with LeanClient(base_url=base_url, headers=headers, timeout=120) as client:
                _annotate(
                    client=client, user=user, project_id=project_id, budget=budget, log=log,
                    lock=lock, rng=random.Random(seed * 1000 + index), submit_next=submit_next,
                )  # fmt: skip
        except Exception as e:  # noqa: BLE001 - reported with the results
            with lock:
                log.failures.append(f"{user}: {e!r}")

    threads = [
        threading.Thread(target=target, args=(user, token, i), daemon=True)
        for i, (user, token) in enumerate(tokens)
    ]
    cpu = _cpu_s()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log.cpu_s = [_cpu_s() - cpu]
    return log


def _process_main(conn, kwargs: dict) -> None:
    try:
        conn.send(_run_threads(**kwargs).picklable())
    except BaseException as e:  # noqa: BLE001 - the parent reports it
        conn.send(CycleLog(failures=[f"client process: {e!r}"]).picklable())
    finally:
        conn.close()


def run_cycles(
    *,
    base_url: str,
    tokens: dict[str, str],
    project_id: int,
    cycles: int,
    processes: int = 1,
    seed: int = 0,
    submit_next: bool = False,
) -> CycleLog:
    """`cycles` claim -> submit cycles by the annotators `tokens` (username -> API token),
    one thread each, over `processes` processes (1: threads of this process); `submit_next`:
    the labeling page's loop (module docstring)."""
    budget = Budget(cycles)
    items = list(tokens.items())
    processes = max(1, min(processes, len(items)))
    if processes == 1:
        return _run_threads(
            base_url=base_url, tokens=items, project_id=project_id, budget=budget, seed=seed,
            submit_next=submit_next,
        )  # fmt: skip
    ctx = multiprocessing.get_context("fork")
    workers = []
    for p in range(processes):
        receive, send = ctx.Pipe(duplex=False)
        kwargs = {
            "base_url": base_url,
            "tokens": items[p::processes],
            "project_id": project_id,
            "budget": budget,
            "seed": seed * 100 + p,
            "submit_next": submit_next,
        }
        proc = ctx.Process(target=_process_main, args=(send, kwargs), daemon=True)
        proc.start()
        send.close()
        workers.append((proc, receive))
    log = CycleLog()
    for proc, receive in workers:
        try:
            log.merge(receive.recv())
        except EOFError:
            log.failures.append(f"client process {proc.pid} died (exit {proc.exitcode})")
        proc.join()
    return log
