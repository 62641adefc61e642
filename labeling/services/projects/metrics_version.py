"""A project's metrics version: moved, in the writing transaction, by every write that changes
what `labeling.metrics` reads, so a metrics snapshot computed at the current version is exact
and is served as it is (services/projects/metrics.py).

The version is the sum of the project's `MetricsVersion` rows. A bump adds one to the row of
the writing connection's slot (its backend's pid modulo SLOTS): the row is locked until the
transaction ends, so two submits of one project wait on each other only when their
connections share a slot, where one counter on the project row would queue every submit of
the project behind the one before it until its commit (claim and next task included). A sum
of counters moves with every committed bump whatever the order of the commits (a largest
sequence number would not: a transaction that took a smaller number and committed later
would leave it unchanged).

The snapshot stores the version read before its metrics were computed: a write counted in it
committed before the computation's statements began and is in them; a write committed during
the computation may be in the data too, and moves the version past the stored one, so the next
read computes again.

What moves it (every service that writes what the metrics read, tests/metrics/
test_metrics_version.py has a test per path): submit, resubmit, skip, reject, accept and
adjudicate (resolutions), a consensus resolution, gold set / unset, the explorer's bulk
actions, imports (rows and predictions), machine suggestions (runs), generated solutions, a
step split or merge (the project's stats count steps), project settings, the stored reasons'
fill. Not read, so not counted: memberships, drafts, locks. The Django admin's saves and
deletes of what the metrics read (annotations and their labels, solutions and their steps,
problems, suggestions, project settings, users' names) move it too (labeling/admin.py
MetricsReadAdmin; tests/metrics/test_admin_writes.py). A data migration that rewrites what the
metrics read ends with `RunPython(metrics_snapshots_invalidate, RunPython.noop)`. The API's
`?refresh=true` computes anyway.

A bump that says where it wrote (`solution_id`: one solution's labels, annotations, steps or
gold; `metrics_version_bump_of_solutions`: several solutions' suggestions, new solutions, bulk
actions, the version moved by one per solution) or that it wrote nothing the partial aggregates
read (`labels=False`) also logs `MetricsChange` rows, so that the next refresh recomputes the
partial aggregates of those solutions only (metrics_parts.py); an unlogged bump (the default,
safe whatever the write did) makes it rebuild them all.
"""

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import connection

from labeling.pg.compiled import hot_cursor
from labeling.pg.writes_joined import joining, write

SLOTS = 16


_INSERT = "INSERT INTO labeling_metricsversion (project_id, slot, bumps) "
_LOG = "INSERT INTO labeling_metricschange (project_id, solution_id) "
_ADD = (
    " ON CONFLICT (project_id, slot)"
    " DO UPDATE SET bumps = labeling_metricsversion.bumps + EXCLUDED.bumps"
)


def _slot() -> str:
    return f"mod(pg_backend_pid(), {SLOTS})" if connection.vendor == "postgresql" else "0"


def metrics_version_bump(
    *, project_id: int, solution_id: int | None = None, labels: bool = True
) -> None:
    """Move the project's metrics version, in the caller's transaction. Inside a
    `writes_joined()` block it joins the block's statement (a submit's: no statement more).

    `solution_id`: the write changed the labels or annotations of this solution only; `labels`
    False: it changed none (suggestions, gold, review state). Either logs the bump
    (MetricsChange), so the next refresh recomputes the partial aggregates of the logged
    solutions only; a bump logged neither way (the default: whatever it changed) makes the next
    refresh rebuild them in full (services/projects/metrics_parts.py). PostgreSQL only: other
    databases compute every refresh in full."""
    bump = (f"{_INSERT}VALUES (%s, {_slot()}, 1){_ADD}", [project_id])
    if (solution_id is None and labels) or connection.vendor != "postgresql":
        write(*bump)
        return
    _bump_and_log(bump, (_LOG + "VALUES (%s, %s)", [project_id, solution_id]))


def metrics_version_bump_of_solution(*, solution_id: int) -> None:
    """metrics_version_bump(solution_id=...) for the project of a solution the caller knows by
    id only: the write changed that solution's annotations only."""
    bump = (
        f"{_INSERT}SELECT project_id, {_slot()}, 1 FROM labeling_solution WHERE id = %s{_ADD}",
        [solution_id],
    )
    if connection.vendor != "postgresql":  # the partial aggregates are PostgreSQL's
        write(*bump)
        return
    log = (_LOG + "SELECT project_id, id FROM labeling_solution WHERE id = %s", [solution_id])
    _bump_and_log(bump, log)


def _bump_and_log(bump: tuple[str, list], log: tuple[str, list]) -> None:
    """The bump and its log row: two held writes inside a `writes_joined()` block (its one
    statement), else one statement (the bump a WITH of the log's INSERT): no statement more."""
    if joining():
        write(*bump)
        write(*log)
        return
    write(f"WITH bump AS ({bump[0]}) {log[0]}", [*bump[1], *log[1]])


def metrics_version_bump_of_solutions(*, project_id: int, solution_ids: Iterable[int]) -> None:
    """metrics_version_bump for a write over several solutions of one project that changed
    what their partial aggregates read (machine suggestions: agreement with machine sources):
    the version moves by one per solution and each is logged, so the next refresh recomputes
    those only; more than METRICS_PARTS_MAX_SOLUTIONS: one unlogged bump (a rebuild), rather
    than a log its refresh would not read; the same when the project's unrefreshed log would
    pass it with these (an import of a million solutions logs batch after batch: past the
    limit its rows would only be read to be thrown away, as the hourly prune does)."""
    ids = sorted(set(solution_ids))
    if not ids:
        return
    if len(ids) > parts_limit() or connection.vendor != "postgresql":
        metrics_version_bump(project_id=project_id)
        return
    bump = (f"{_INSERT}VALUES (%s, {_slot()}, %s){_ADD}", [project_id, len(ids)])
    # Logged only while the log has room (the probe reads at most `room` + 1 index entries);
    # else the version moves by more than the log holds, which makes the refresh rebuild.
    log = (
        _LOG + "SELECT %s, unnest(%s::bigint[]) WHERE NOT EXISTS (SELECT 1 FROM"
        " labeling_metricschange WHERE project_id = %s OFFSET %s)",
        [project_id, ids, project_id, parts_limit() - len(ids)],
    )
    _bump_and_log(bump, log)


def parts_limit() -> int:
    """More changed solutions than this: a refresh rebuilds the partial aggregates."""
    return getattr(settings, "METRICS_PARTS_MAX_SOLUTIONS", 20_000)


def metrics_versions_bump(*, project_ids: set[int], labels: bool = True) -> None:
    """metrics_version_bump for each project of a write over several (an autolabel write
    batch's solutions), in id order: two such writes take the slots' locks in one order."""
    for project_id in sorted(project_ids):
        metrics_version_bump(project_id=project_id, labels=labels)


def metrics_version_sql() -> str:
    """The version as an SQL expression of one %s, the project's id."""
    return (
        "(SELECT COALESCE(SUM(v.bumps), 0) FROM labeling_metricsversion v WHERE v.project_id = %s)"
    )


def metrics_version_get(*, project_id: int) -> int:
    with hot_cursor() as cursor:
        cursor.execute(f"SELECT {metrics_version_sql()}", [project_id])
        return int(cursor.fetchone()[0])


def metrics_snapshots_invalidate(apps: Any = None, schema_editor: Any = None) -> None:
    """Every project's snapshot stale: its next read computes again. For a data migration that
    rewrites what the metrics read (a RunPython operation after it; plain SQL, so it holds
    whatever the historical models are)."""
    using = schema_editor.connection if schema_editor is not None else connection
    with using.cursor() as cursor:
        cursor.execute("UPDATE labeling_metricssnapshot SET labels_version = NULL")
