"""How many unfinished jobs of one kind a project may hold at once.

Every auto-label run, export, training run and import is work for a shared worker pool (and
disk: an upload, an export file, checkpoints). Without a bound one project's admin, or a
reviewer (exports), could queue a thousand of them and starve every other project. A create
service calls `active_jobs_check` inside its transaction: with `PROJECT_ACTIVE_JOBS[kind]`
jobs of the project pending, running or paused, the new one is a 409 saying so (cancel or wait
for one). Two requests at once are serialized per (project, kind) on PostgreSQL by a
transaction-level advisory lock (SQLite serializes writers already). Staff users and the server
itself (management commands) are not bounded; the operator changes the bounds with the
PROJECT_ACTIVE_JOBS setting (env, JSON).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from labeling.accounts.operators import acts_as_server, operator_caps
from labeling.errors import Conflict
from labeling.pg.named_locks import named_xact_lock
from labeling.services.projects.live_hold import project_live_hold

DEFAULTS: dict[str, int] = {
    "autolabel_runs": 4,
    "exports": 8,
    "training_runs": 2,
    "imports": 8,
}
NOUNS = {
    "autolabel_runs": "auto-label runs",
    "exports": "exports",
    "training_runs": "training runs",
    "imports": "imports",
}


def limits() -> dict[str, int]:
    """The caps in force: DEFAULTS with the operator's PROJECT_ACTIVE_JOBS over them."""
    return operator_caps("PROJECT_ACTIVE_JOBS", DEFAULTS)


def active_jobs_check(*, project_id: int, kind: str, unfinished: QuerySet, user: Any) -> None:
    """Conflict when the project already holds its bound of unfinished `kind` jobs.

    `unfinished` is the project's jobs of that kind still pending, running or paused. Call it
    inside the transaction that creates the job. A project deleted meanwhile is a 410, and one
    that is live stays so until that transaction ends (`project_live_hold`)."""
    project_live_hold(project_id=project_id)
    if acts_as_server(user):
        return
    cap = limits()[kind]
    named_xact_lock(f"active-jobs:{kind}:{project_id}")
    held = unfinished[: cap + 1].count()
    if held >= cap:
        noun = NOUNS[kind]
        raise Conflict(
            f"This project already has {held} {noun} pending or running, the most it may have "
            f"at once (PROJECT_ACTIVE_JOBS[{kind!r}]; a server admin may raise it): wait for "
            f"one to finish or cancel one.",
            limit=cap,
        )
