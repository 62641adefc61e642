"""Simulated annotators on the real HTTP API, latency report, and the database checks.

Each annotator thread loops: claim (`POST queue/next/`), autosave the draft a few times
(`PUT annotations/<id>/draft/`), submit. It records what it sent and, per claim, the window in
which it surely held the solution: from the claim's response to the submit's request (the
server's lock interval contains that window, so overlapping windows prove a double hold).
"""

from __future__ import annotations

import logging
import random
import statistics
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field

import httpx

logging.getLogger("httpx").setLevel(logging.WARNING)


@dataclass
class Claim:
    user: str
    solution_id: int
    annotation_id: int
    held_from: float  # claim response received (monotonic)
    held_until: float | None = None  # submit request sent
    submitted_labels: dict[int, int] | None = None  # step id -> rating, when the submit was 200


@dataclass
class Recorder:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    claims: list[Claim] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def timed(self, client: httpx.Client, endpoint: str, method: str, url: str, **kw):
        start = time.perf_counter()
        try:
            response = client.request(method, url, **kw)
        except httpx.HTTPError:
            with self.lock:
                self.errors[f"{endpoint} (network)"] += 1
            raise
        elapsed = time.perf_counter() - start
        with self.lock:
            self.latencies[endpoint].append(elapsed)
            if response.status_code >= 400:
                self.errors[f"{endpoint} {response.status_code}"] += 1
        return response


def annotate_loop(
    *,
    base_url: str,
    token: str,
    user: str,
    project_id: int,
    deadline: float,
    recorder: Recorder,
    drafts: int = 3,
    think_s: float = 0.05,
    seed: int = 0,
) -> None:
    rng = random.Random(seed)
    headers = {"Authorization": f"Token {token}"}
    with httpx.Client(base_url=base_url, headers=headers, timeout=60) as client:
        while time.monotonic() < deadline:
            r = recorder.timed(
                client, "POST queue/next", "POST", f"/api/projects/{project_id}/queue/next/"
            )
            if r.status_code == 204:
                return  # nothing left for this annotator
            r.raise_for_status()
            task = r.json()
            claim = Claim(
                user=user,
                solution_id=task["solution"]["id"],
                annotation_id=task["annotation"]["id"],
                held_from=time.monotonic(),
            )
            with recorder.lock:
                recorder.claims.append(claim)
            version = task["annotation"]["version"]
            steps = [s["id"] for s in task["solution"]["steps"]]
            labels: dict[int, int] = {}
            for i in range(drafts):
                for step in steps[: max(1, len(steps) * (i + 1) // drafts)]:
                    labels[step] = rng.choice((-1, 0, 1))
                time.sleep(think_s * rng.random())
                body = {
                    "version": version,
                    "labels": [{"step_id": s, "rating": v} for s, v in labels.items()],
                    "time_spent_ms": 1000 * (i + 1),
                }
                r = recorder.timed(
                    client, "PUT draft", "PUT", f"/api/annotations/{claim.annotation_id}/draft/",
                    json=body,
                )  # fmt: skip
                r.raise_for_status()
                version = r.json()["version"]
            for step in steps:
                labels.setdefault(step, 1)
            body = {
                "version": version,
                "labels": [{"step_id": s, "rating": v} for s, v in labels.items()],
            }
            claim.held_until = time.monotonic()
            r = recorder.timed(
                client, "POST submit", "POST", f"/api/annotations/{claim.annotation_id}/submit/",
                json=body,
            )  # fmt: skip
            if r.status_code == 200:
                claim.submitted_labels = dict(labels)
            elif r.status_code != 409:  # 409: the overlap filled while our lock had expired
                r.raise_for_status()


def run_annotators(
    *, base_url: str, tokens: dict[str, str], project_id: int, duration_s: float, **kw
) -> tuple[Recorder, float, list[BaseException]]:
    """Run one thread per annotator until `duration_s` or the queue is empty."""
    recorder = Recorder()
    failures: list[BaseException] = []
    deadline = time.monotonic() + duration_s

    def target(user: str, token: str, seed: int) -> None:
        try:
            annotate_loop(
                base_url=base_url, token=token, user=user, project_id=project_id,
                deadline=deadline, recorder=recorder, seed=seed, **kw,
            )  # fmt: skip
        except BaseException as e:  # noqa: BLE001 - reported to the caller
            failures.append(e)

    threads = [
        threading.Thread(target=target, args=(u, t, i), daemon=True)
        for i, (u, t) in enumerate(tokens.items())
    ]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return recorder, time.monotonic() - start, failures


def percentile(values: list[float], q: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def report(recorder: Recorder, wall_s: float) -> str:
    lines = [
        f"{'endpoint':<18} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'req/s':>7}",
    ]
    total = 0
    for endpoint, values in sorted(recorder.latencies.items()):
        total += len(values)
        ms = [v * 1000 for v in values]
        lines.append(
            f"{endpoint:<18} {len(ms):>6} {percentile(ms, 50):>8.1f} {percentile(ms, 95):>8.1f} "
            f"{percentile(ms, 99):>8.1f} {len(ms) / wall_s:>7.1f}"
        )
    submitted = sum(c.submitted_labels is not None for c in recorder.claims)
    lines.append(
        f"total {total} requests in {wall_s:.1f} s = {total / wall_s:.1f} req/s; "
        f"{submitted} submissions = {submitted / wall_s * 60:.0f}/min"
    )
    if recorder.errors:
        lines.append(f"HTTP errors: {dict(recorder.errors)}")
    return "\n".join(lines)


def client_side_violations(claims: list[Claim], overlap: int) -> list[str]:
    """Moments when more annotators surely held a solution than its overlap allows."""
    problems = []
    by_solution: dict[int, list[Claim]] = defaultdict(list)
    for c in claims:
        by_solution[c.solution_id].append(c)
    for solution_id, cs in by_solution.items():
        users = [c.user for c in cs if c.submitted_labels is not None]
        if len(users) != len(set(users)):
            problems.append(f"solution {solution_id}: one user submitted twice {users}")
        for c in cs:
            t = c.held_from
            holding = [
                o for o in cs if o.held_from <= t and (o.held_until is None or o.held_until > t)
            ]
            done_before = [
                o for o in cs
                if o.submitted_labels is not None and o.held_until is not None
                and o.held_until < t and o not in holding
            ]  # fmt: skip
            if len(holding) + len(done_before) > overlap:
                problems.append(
                    f"solution {solution_id} at {t:.3f}: held by "
                    f"{[o.user for o in holding]} after {len(done_before)} submissions"
                )
    return problems


def database_violations(project_id: int, claims: list[Claim], overlap: int) -> list[str]:
    """Check the database after the run (needs Django set up on the same database)."""
    from django.db.models import Count

    from labeling.models import Annotation, Solution, StepLabel

    problems: list[str] = []
    sent = {c.annotation_id: c for c in claims if c.submitted_labels is not None}
    submitted = Annotation.objects.filter(
        solution__project_id=project_id, status="submitted", imported=False
    )
    in_db = set(submitted.values_list("id", flat=True))
    if in_db != set(sent):
        problems.append(
            f"submitted annotations differ: missing {sorted(set(sent) - in_db)[:10]}, "
            f"unexpected {sorted(in_db - set(sent))[:10]}"
        )
    dup = submitted.values("solution_id", "annotator_id").annotate(n=Count("id")).filter(n__gt=1)
    if dup.exists():
        problems.append(f"a user submitted one solution twice: {list(dup[:5])}")
    rows = StepLabel.objects.filter(annotation_id__in=sent).values_list(
        "annotation_id", "step_id", "rating"
    )
    got: dict[int, dict[int, int]] = defaultdict(dict)
    for annotation_id, step_id, rating in rows:
        if step_id in got[annotation_id]:
            problems.append(f"annotation {annotation_id} step {step_id} labelled twice")
        got[annotation_id][step_id] = rating
    for annotation_id, claim in sent.items():
        if got[annotation_id] != claim.submitted_labels:
            problems.append(f"annotation {annotation_id}: stored labels differ from the sent ones")
    for solution in Solution.objects.filter(project_id=project_id, is_gold=False):
        n = submitted.filter(solution=solution).count()
        if n > overlap + solution.extra_overlap or solution.submitted_count != n:
            problems.append(
                f"solution {solution.pk}: {n} submitted, counter {solution.submitted_count}, "
                f"overlap {overlap}"
            )
    return problems


def start_background(*, base_url: str, admin_token: str, project_id: int) -> dict[str, str]:
    """An auto-label run (symbolic + answer) and an export, both through the API."""
    headers = {"Authorization": f"Token {admin_token}"}
    with httpx.Client(base_url=base_url, headers=headers, timeout=60) as client:
        run = client.post(
            f"/api/projects/{project_id}/autolabel-runs/",
            json={"sources": ["symbolic", "answer"], "params": {"chunk_size": 5}},
        )
        run.raise_for_status()
        export = client.post(f"/api/projects/{project_id}/exports/", json={"format": "trl"})
        export.raise_for_status()
    return {
        "run": f"/api/autolabel-runs/{run.json()['id']}/",
        "export": f"/api/exports/{export.json()['id']}/",
    }


def wait_background(
    *, base_url: str, admin_token: str, jobs: dict[str, str], timeout_s: float = 300
) -> dict[str, dict]:
    """Poll each job until it is done or failed; returns the final payloads."""
    headers = {"Authorization": f"Token {admin_token}"}
    final: dict[str, dict] = {}
    deadline = time.monotonic() + timeout_s
    with httpx.Client(base_url=base_url, headers=headers, timeout=60) as client:
        while len(final) < len(jobs) and time.monotonic() < deadline:
            for name, url in jobs.items():
                if name in final:
                    continue
                body = client.get(url).raise_for_status().json()
                if body["status"] in ("done", "failed", "cancelled"):
                    final[name] = body
            time.sleep(0.5)
    return final
