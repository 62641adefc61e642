"""How many rows of a collection a client may grow: registered models and pending invites per
project, comments per solution.

Each list a client can grow is either paginated or bounded (tests/api/test_list_bounds.py); the
bounded ones, and every collection whose rows cost the server something on each use (a model a
run may load, a token checked on each request), hold at most `COLLECTION_CAPS[kind]` rows. The
create service calls `collection_room_check` inside its transaction: at the cap the next one is
a 409 in words. Two creates at once are serialized per (kind, owner) on PostgreSQL by a
transaction-level advisory lock (SQLite serializes writers already). Unlike PROJECT_ACTIVE_JOBS
these bind staff too: the bound is what keeps the list a client reads whole bounded. The
operator raises them with the COLLECTION_CAPS setting (env, JSON), up to the API's page size
for the lists that are not paginated.
"""

from __future__ import annotations

from django.db.models import QuerySet

from labeling.accounts.operators import operator_caps
from labeling.errors import Conflict
from labeling.pg.named_locks import named_xact_lock

DEFAULTS: dict[str, int] = {
    "prm_models": 100,  # per project; its list is paginated, a run picks one by id
    "invites": 200,  # pending invites per project; listed whole
    "comments": 1000,  # per solution (its threads and the steps'); listed whole
}
WHAT = {  # kind -> (whose, what the rows are, what frees one)
    "prm_models": ("This project", "registered models", "delete one a run no longer uses"),
    "invites": ("This project", "pending invites", "withdraw one, or wait for one to expire"),
    "comments": ("This solution", "comments", "go on in another channel"),
}


def collection_caps() -> dict[str, int]:
    """The caps in force: DEFAULTS with the operator's COLLECTION_CAPS over them."""
    return {k: int(v) for k, v in operator_caps("COLLECTION_CAPS", DEFAULTS).items()}


def collection_room_check(*, kind: str, owner_id: int, held: QuerySet, reserved: int = 0) -> None:
    """Conflict when `held` (the owner's rows of `kind`: a project's, a solution's) plus
    `reserved` (rows promised to work in flight, e.g. training runs that will register their
    model) reach the cap. Call it inside the transaction that adds the row."""
    cap = collection_caps()[kind]
    named_xact_lock(f"collection:{kind}:{owner_id}")
    count = held[: cap + 1].count() + reserved
    if count >= cap:
        whose, noun, remedy = WHAT[kind]
        raise Conflict(
            f"{whose} already has {count} {noun}, the most allowed "
            f"(COLLECTION_CAPS[{kind!r}]; a server admin may raise it): {remedy} first.",
            limit=cap,
        )
