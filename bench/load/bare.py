"""The bare-SQL claim -> submit cycle: the floor the HTTP loop is measured against.

Scratch tables of its own (`bare_*`) in the app's database, filled from the project's
solutions (same ids, same step counts). One claim is one autocommitted statement,

    UPDATE bare_solution SET locked_by = ..., locked_until = now() + ttl
    WHERE id = (SELECT id FROM bare_solution WHERE <open> ORDER BY id
                FOR UPDATE SKIP LOCKED LIMIT 1)
    RETURNING id, n_steps

served by a partial index on open work; one submit is one transaction that inserts the
annotation and its step labels (one INSERT ... SELECT FROM unnest) and bumps the counter.
Each annotator is a thread with its own psycopg connection. No HTTP, no ORM, no serializer:
what PostgreSQL itself costs for the same rows.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter, defaultdict

import psycopg

from bench.load.annotators import Claim
from bench.load.cycles import Budget, CycleLog

TTL_S = 30 * 60


def _schema(overlap: int) -> str:
    # `overlap` goes into the SQL text: a partial index only serves queries whose predicate
    # it can prove, which a bound parameter in a generic plan is not.
    return f"""
    DROP TABLE IF EXISTS bare_steplabel, bare_annotation, bare_solution;
    CREATE TABLE bare_solution (
        id bigint PRIMARY KEY,
        project_id bigint NOT NULL,
        n_steps integer NOT NULL,
        submitted_count integer NOT NULL DEFAULT 0,
        locked_by bigint,
        locked_until timestamptz
    );
    CREATE TABLE bare_annotation (
        id bigserial PRIMARY KEY,
        solution_id bigint NOT NULL REFERENCES bare_solution (id),
        annotator_id bigint NOT NULL,
        status varchar(20) NOT NULL,
        submitted_at timestamptz NOT NULL,
        UNIQUE (solution_id, annotator_id)
    );
    CREATE TABLE bare_steplabel (
        id bigserial PRIMARY KEY,
        annotation_id bigint NOT NULL REFERENCES bare_annotation (id),
        step_index integer NOT NULL,
        rating smallint NOT NULL CHECK (rating IN (-1, 0, 1)),
        UNIQUE (annotation_id, step_index)
    );
    CREATE INDEX bare_steplabel_annotation ON bare_steplabel (annotation_id);
    CREATE INDEX bare_solution_open ON bare_solution (project_id, id)
        WHERE submitted_count < {int(overlap)};
    """


def bare_setup(conninfo: str, *, project_id: int, overlap: int) -> int:
    """(Re)create the bare tables with one row per solution of the project; returns the rows."""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(_schema(overlap))
        rows = conn.execute(
            """
            INSERT INTO bare_solution (id, project_id, n_steps)
            SELECT s.id, s.project_id, count(st.id)
            FROM labeling_solution s JOIN labeling_step st ON st.solution_id = s.id
            WHERE s.project_id = %s
            GROUP BY s.id
            """,
            (project_id,),
        ).rowcount
        conn.execute("ANALYZE bare_solution")
    return rows


def bare_teardown(conninfo: str) -> None:
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bare_steplabel, bare_annotation, bare_solution")


def _claim_sql(overlap: int) -> str:
    return f"""
    UPDATE bare_solution SET locked_by = %(user)s,
        locked_until = now() + make_interval(secs => {TTL_S})
    WHERE id = (
        SELECT id FROM bare_solution
        WHERE project_id = %(project)s AND submitted_count < {int(overlap)}
          AND (locked_until IS NULL OR locked_until < now())
        ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1
    )
    RETURNING id, n_steps
    """


INSERT_ANNOTATION = """
INSERT INTO bare_annotation (solution_id, annotator_id, status, submitted_at)
VALUES (%s, %s, 'submitted', now()) RETURNING id
"""
INSERT_LABELS = """
INSERT INTO bare_steplabel (annotation_id, step_index, rating)
SELECT %s, i, r FROM unnest(%s::integer[], %s::smallint[]) AS t (i, r)
"""
BUMP = """
UPDATE bare_solution SET submitted_count = submitted_count + 1, locked_by = NULL,
    locked_until = NULL
WHERE id = %s AND locked_by = %s
"""


def _annotate(
    *,
    conninfo: str,
    annotator_id: int,
    project_id: int,
    overlap: int,
    budget: Budget,
    log: CycleLog,
    lock: threading.Lock,
    rng: random.Random,
) -> None:
    claim_sql = _claim_sql(overlap)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        while budget.take():
            t0 = time.monotonic()
            row = conn.execute(claim_sql, {"user": annotator_id, "project": project_id}).fetchone()
            t1 = time.monotonic()
            if row is None:
                budget.give_back()
                with lock:
                    log.errors["claim: nothing left"] += 1
                return
            solution_id, n_steps = row
            ratings = [rng.choice((-1, 0, 1)) for _ in range(n_steps)]
            t2 = time.monotonic()
            with conn.transaction():
                (annotation_id,) = conn.execute(
                    INSERT_ANNOTATION, (solution_id, annotator_id)
                ).fetchone()
                conn.execute(INSERT_LABELS, (annotation_id, list(range(n_steps)), ratings))
                bumped = conn.execute(BUMP, (solution_id, annotator_id)).rowcount
                if bumped != 1:
                    raise RuntimeError(f"solution {solution_id} was not locked by {annotator_id}")
            t3 = time.monotonic()
            with lock:
                log.claims.append(
                    Claim(
                        user=f"bare{annotator_id}",
                        solution_id=solution_id,
                        annotation_id=annotation_id,
                        held_from=t1,
                        held_until=t2,
                        submitted_labels=dict(enumerate(ratings)),
                    )
                )
                log.claim_s.append(t1 - t0)
                log.submit_s.append(t3 - t2)
                log.cycle_s.append(t3 - t0)
                log.started = min(log.started, t0)
                log.ended = max(log.ended, t3)


def run_bare(
    conninfo: str,
    *,
    project_id: int,
    overlap: int,
    annotators: int,
    cycles: int,
    first_annotator_id: int,
    seed: int = 0,
) -> CycleLog:
    """`cycles` bare claim -> submit cycles from `annotators` threads (one connection each)."""
    budget, log, lock = Budget(cycles), CycleLog(), threading.Lock()

    def target(index: int) -> None:
        try:
            _annotate(
                conninfo=conninfo, annotator_id=first_annotator_id + index,
                project_id=project_id, overlap=overlap, budget=budget, log=log, lock=lock,
                rng=random.Random(seed * 1000 + index),
            )  # fmt: skip
        except Exception as e:  # noqa: BLE001 - reported with the results
            with lock:
                log.failures.append(f"bare annotator {index}: {e!r}")

    threads = [threading.Thread(target=target, args=(i,), daemon=True) for i in range(annotators)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return log


def bare_problems(conninfo: str, *, claims: list[Claim], overlap: int) -> list[str]:
    """Every bare submission stored once with its ratings; no solution over its overlap."""
    problems: list[str] = []
    sent = {c.annotation_id: c.submitted_labels for c in claims}
    with psycopg.connect(conninfo) as conn:
        over = conn.execute(
            """
            SELECT s.id, s.submitted_count, count(a.id) FROM bare_solution s
            LEFT JOIN bare_annotation a ON a.solution_id = s.id
            GROUP BY s.id HAVING count(a.id) > %s OR count(a.id) <> s.submitted_count
            """,
            (overlap,),
        ).fetchall()
        problems += [f"bare solution {s}: counter {c}, {n} annotations" for s, c, n in over[:10]]
        stored = [r[0] for r in conn.execute("SELECT id FROM bare_annotation").fetchall()]
        if Counter(stored) != Counter(list(sent)):
            problems.append(
                f"bare annotations: {len(stored)} stored ({len(set(stored))} distinct), "
                f"{len(sent)} sent, {len(set(stored) ^ set(sent))} differ"
            )
        got: dict[int, dict[int, int]] = defaultdict(dict)
        for annotation_id, index, rating in conn.execute(
            "SELECT annotation_id, step_index, rating FROM bare_steplabel"
        ):
            got[annotation_id][index] = rating
        differ = [a for a, labels in sent.items() if got.get(a) != labels]
        if differ:
            problems.append(f"bare labels differ from the sent ones: {differ[:10]}")
    return problems
