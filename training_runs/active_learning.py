"""Active learning from a trained PRM: which solutions humans should label first.

PRM800K served its labelers "convincing wrong-answer" solutions: ones the current PRM rates
highly although the final answer is wrong, where its mistakes are most informative. With a
project's QueuePriority set to `prm_active`, labeling.services.queue.claim claims, after the
solutions assigned to the user (an explicit assignment always comes first: the queue puts
`-assigned` before this order's keys), in order:

1. convincing wrong answers: `answer_correct` is False and the PRM (Solution.metadata["prm"],
   written by the prm engine) predicts no wrong step; the most convincing (highest minimum
   step probability) first;
2. the other scored solutions, least certain first: minimum step probability closest to the
   threshold it was scored with;
3. solutions the PRM has not scored.
Skipped solutions stay last, and ties keep the default order (started ones, then by id).
`answer_correct` is read from the column at claim time, so an answer check that ran after
the PRM still counts. The keys are labeling.pg.claim_keys', which an index serves.
"""

from __future__ import annotations

import time

from django.db import transaction
from django.db.models import F, QuerySet

from labeling.models import Project
from labeling.pg.claim_keys import PRM_KEY, PRM_RANK
from labeling.pg.compiled import compile_once, hot_cursor
from training_runs.models import QueueOrder, QueuePriority


def queue_order_get(*, project: Project) -> str:
    """The project's claim order. Every claim asks (through the queue's hook): compiled once
    and prepared (labeling.pg.compiled)."""
    statement = compile_once(
        ("queue order",),
        lambda s: (
            QueuePriority.objects.filter(project_id=s["project"])
            .order_by("pk")
            .values_list("order", flat=True)[:1]
            .query.sql_with_params()
        ),
        ints=("project",),
    )
    with hot_cursor() as cursor:
        statement.execute(cursor, {"project": project.pk})
        found = cursor.fetchone()
    return (found and found[0]) or QueueOrder.DEFAULT


def queue_order_set(*, project: Project, order: str) -> QueuePriority:
    if order not in QueueOrder.values:
        from labeling.errors import ValidationFailed

        raise ValidationFailed(
            f"order must be one of {', '.join(QueueOrder.values)}; got {order!r}.", field="order"
        )
    priority, _ = QueuePriority.objects.update_or_create(project=project, defaults={"order": order})
    _recent.pop(project.pk, None)
    transaction.on_commit(lambda: _recent.pop(project.pk, None))
    return priority


# Every claim asks its project's order (the hook below). Each process keeps what it read for
# ORDER_TTL_S: a change reaches this process at once (queue_order_set forgets it here) and
# the others within that time, and a claim saves a statement.
ORDER_TTL_S = 2.0
_recent: dict[int, tuple[float, str]] = {}


def queue_orders_forget() -> None:
    """Forget every order this process read (tests: a rolled-back project's id can return)."""
    _recent.clear()


def _queue_order_recent(project: Project) -> str:
    now = time.monotonic()
    hit = _recent.get(project.pk)
    if hit is not None and now - hit[0] < ORDER_TTL_S:
        return hit[1]
    order = queue_order_get(project=project)
    _recent[project.pk] = (now, order)
    return order


def prm_active_order(candidates: QuerySet) -> QuerySet:
    """The candidates ordered for active learning (see the module docstring); the queue puts
    assigned-to-the-user and skipped-by-the-user before and after these keys."""
    return candidates.alias(prm_rank=PRM_RANK, prm_key=PRM_KEY).order_by(
        "prm_rank", "prm_key", F("submitted_count").desc(), "id"
    )


def candidate_order(*, project: Project, candidates: QuerySet) -> QuerySet | None:
    """The hook labeling.services.queue.claim calls: an ordering when the project opted in (the
    order as this process read it at most ORDER_TTL_S ago)."""
    if _queue_order_recent(project) != QueueOrder.PRM_ACTIVE:
        return None
    return prm_active_order(candidates)
