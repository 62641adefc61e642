"""stream_bench's database side: the scratch database, the seeded project and annotators, and
the checks of what the run stored (bench/stream_bench.py runs them)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bench.load.annotators import Claim

OVERLAP = 1  # the workload: every solution labeled once


def scratch_database(base_url: str, name: str) -> str:
    import psycopg

    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return urlunsplit(urlsplit(base_url)._replace(path=f"/{name}"))


def drop_database(base_url: str, name: str) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


# --- seeding -----------------------------------------------------------------------------


@dataclass
class Seeded:
    project: object
    solutions: int
    steps: int
    timings: dict[str, float]


def seed_project(*, n: int, workdir: Path, labels_as: str = "suggestions") -> Seeded:
    """A project (overlap 1) with `n` solutions through import_file; then ANALYZE."""
    from django.db import connection

    from bench.import_bench import write_file
    from labeling.services.imports import import_file
    from labeling.services.projects.edit import project_create

    timings: dict[str, float] = {}
    started = time.perf_counter()
    path = workdir / "stream_bench.jsonl"
    write_file(path, n)
    timings["write file"] = time.perf_counter() - started
    project = project_create(
        created_by=None, name=f"stream bench {time.strftime('%Y%m%d%H%M%S')}", overlap=OVERLAP
    )
    started = time.perf_counter()
    result = import_file(project=project, path=path, labels_as=labels_as)
    timings["import_file"] = time.perf_counter() - started
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    timings["ANALYZE"] = time.perf_counter() - started
    path.unlink()
    return Seeded(project, result.solutions_created, result.steps_created, timings)


def annotators_create(*, project, count: int, prefix: str) -> dict[str, str]:
    """`count` annotator accounts (no password) in the project, username -> API token."""
    from django.contrib.auth import get_user_model

    from labeling.services.people.accounts import member_add
    from labeling.services.people.tokens import token_create

    User = get_user_model()
    tokens = {}
    for i in range(count):
        user = User.objects.create_user(f"{prefix}-{i}-p{project.pk}", password=None)
        member_add(project=project, username=user.username, role="annotator")
        tokens[user.username] = token_create(user=user, name="stream bench").key
    return tokens


# --- checks ------------------------------------------------------------------------------


@dataclass
class Checks:
    double_db: list[str] = field(default_factory=list)
    double_client: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def all(self) -> list[str]:
        return self.double_db + self.double_client + self.labels + self.errors


def database_checks(*, project_id: int, claims: list[Claim], overlap: int, checks: Checks) -> None:
    """Set-based, so they stay cheap at 100k solutions."""
    from django.db.models import Count, F, Q

    from labeling.models import Annotation, Solution, StepLabel

    submitted = Annotation.objects.filter(
        solution__project_id=project_id, status="submitted", imported=False
    )
    over = submitted.values("solution_id").annotate(n=Count("id")).filter(n__gt=overlap)
    checks.double_db += [
        f"solution {r['solution_id']}: {r['n']} submitted annotations, overlap {overlap}"
        for r in over[:10]
    ]
    twice = submitted.values("solution_id", "annotator_id").annotate(n=Count("id")).filter(n__gt=1)
    checks.double_db += [f"one user submitted one solution twice: {r}" for r in twice[:10]]
    counters = (
        Solution.objects.filter(project_id=project_id)
        .annotate(n=Count("annotations", filter=Q(annotations__status="submitted")))
        .exclude(submitted_count=F("n"))
        .values_list("id", "submitted_count", "n")
    )
    checks.double_db += [f"solution {s}: counter {c}, {n} submitted" for s, c, n in counters[:10]]

    sent = {c.annotation_id: c.submitted_labels for c in claims if c.submitted_labels is not None}
    in_db = set(submitted.values_list("id", flat=True))
    if in_db != set(sent):
        checks.labels.append(
            f"submitted annotations differ: missing {sorted(set(sent) - in_db)[:10]}, "
            f"unexpected {sorted(in_db - set(sent))[:10]}"
        )
    got: dict[int, dict[int, int]] = {a: {} for a in sent}
    rows = StepLabel.objects.filter(annotation_id__in=list(sent)).values_list(
        "annotation_id", "step_id", "rating"
    )
    for annotation_id, step_id, rating in rows.iterator():
        if step_id in got[annotation_id]:
            checks.labels.append(f"annotation {annotation_id}: step {step_id} labelled twice")
        got[annotation_id][step_id] = rating
    checks.labels += [
        f"annotation {a}: stored labels {got[a]} differ from the sent {labels}"
        for a, labels in sent.items()
        if got[a] != labels
    ][:10]
