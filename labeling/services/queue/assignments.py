"""Explicit assignment of solutions to annotators, one by one or in bulk.

Strategies for a set of solutions and users, each solution going to `per_solution` distinct
users (default: the project's overlap):
- `each`: every solution to every user;
- `round_robin`: solution i to users i·k, i·k+1, ... (mod n), so everyone gets the same share;
- `weighted`: shares proportional to `weights` (smooth weighted round robin: deterministic,
  and never more than one solution off the exact proportion).
Assigning never touches labels; clearing assignments reopens the solutions to everyone.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet

from labeling.errors import ValidationFailed
from labeling.models import (
    Annotation,
    AnnotationStatus,
    Assignment,
    Project,
    ProjectMembership,
    Solution,
)
from labeling.rules.overlap import open_q
from labeling.services.queue.pool import queue_open_refresh
from labeling.services.queue.source_counts import source_counts_mark

STRATEGIES = ("each", "round_robin", "weighted")
# One request's work: the solutions it chooses and the assignments it writes. Past either
# it is refused with what to send instead (a limit; `only_unassigned` to go on), so a
# project of a million solutions (times up to a thousand users under `each`) is never
# planned, held in memory and written by one request.
SOLUTIONS_MAX = 100_000
ROWS_MAX = 200_000


def _solutions(
    *,
    project: Project,
    solution_ids: Sequence[int] | None,
    source: str | None,
    only_open: bool,
    only_unassigned: bool = False,
    limit: int | None = None,
) -> QuerySet[Solution]:
    qs = Solution.objects.filter(project=project, is_gold=False)
    if solution_ids is not None:
        found = set(qs.filter(pk__in=solution_ids).values_list("pk", flat=True))
        missing = sorted(set(solution_ids) - found)
        if missing:
            raise ValidationFailed(
                f"{len(missing)} solution(s) are not (non-gold) solutions of this project.",
                field="solution_ids",
                missing=missing[:20],
            )
        qs = qs.filter(pk__in=solution_ids)
    if source:
        qs = qs.filter(problem__source=source)
    if only_open:
        qs = qs.filter(open_q(project.overlap))
    if only_unassigned:
        qs = qs.filter(~Exists(Assignment.objects.filter(solution_id=OuterRef("pk"))))
    qs = qs.order_by("id")
    return qs[:limit] if limit else qs


def _check_size(n_solutions: int, per_solution: int) -> None:
    """Refuse a request past SOLUTIONS_MAX solutions or ROWS_MAX assignments."""
    if n_solutions > SOLUTIONS_MAX:
        raise ValidationFailed(
            f"More than {SOLUTIONS_MAX:,} solutions match: assign at most {SOLUTIONS_MAX:,} at "
            "a time (a limit, 'How many'), then the rest with only unassigned solutions.",
            field="limit",
            most=SOLUTIONS_MAX,
        )
    if n_solutions * per_solution > ROWS_MAX:
        raise ValidationFailed(
            f"That would be {n_solutions * per_solution:,} assignments ({n_solutions:,} "
            f"solutions x {per_solution} users); at most {ROWS_MAX:,} at a time: choose fewer "
            "solutions (a limit, 'How many').",
            field="limit",
            most=ROWS_MAX,
        )


def _plan(n_solutions: int, users: list[int], k: int, strategy: str, weights: list[float]):
    """Yield (solution position, user id) pairs."""
    n = len(users)
    if strategy == "each":
        for i in range(n_solutions):
            for user in users:
                yield i, user
        return
    if strategy == "round_robin":
        for i in range(n_solutions):
            for j in range(k):
                yield i, users[(i * k + j) % n]
        return
    total = sum(weights)
    current = [0.0] * n
    for i in range(n_solutions):
        chosen: set[int] = set()
        for _ in range(k):
            for u in range(n):
                current[u] += weights[u]
            best = max((u for u in range(n) if u not in chosen), key=lambda u: current[u])
            current[best] -= total
            chosen.add(best)
            yield i, users[best]


@dataclass(frozen=True)
class AssignmentPlan:
    solutions: int  # solutions chosen by the filters
    rows: list[Assignment]  # new assignments (existing ones are left out)

    def per_user(self, users: Sequence[int]) -> dict[int, int]:
        counts = dict.fromkeys(users, 0)
        for row in self.rows:
            counts[row.user_id] += 1
        return counts


def assignment_plan(
    *,
    project: Project,
    user_ids: Sequence[int],
    solution_ids: Sequence[int] | None = None,
    source: str | None = None,
    only_open: bool = True,
    only_unassigned: bool = False,
    limit: int | None = None,
    strategy: str = "round_robin",
    weights: Sequence[float] | None = None,
    per_solution: int | None = None,
    created_by=None,
) -> AssignmentPlan:
    """The assignments `assignment_create` would make, unsaved (its preview).

    Solutions: a list, or every one matching `source`, still open (`only_open`: fewer
    submissions than the overlap) and/or assigned to nobody yet (`only_unassigned`); the first
    `limit` of them by id."""
    if strategy not in STRATEGIES:
        raise ValidationFailed(
            f"strategy must be one of {', '.join(STRATEGIES)}.", field="strategy"
        )
    users = list(dict.fromkeys(user_ids))
    if not users:
        raise ValidationFailed("Name at least one user.", field="user_ids")
    members = set(
        ProjectMembership.objects.filter(project=project, user_id__in=users).values_list(
            "user_id", flat=True
        )
    )
    if set(users) - members:
        raise ValidationFailed(
            "Only members of the project can be assigned work.",
            field="user_ids",
            not_members=sorted(set(users) - members),
        )
    if strategy == "weighted" and (
        weights is None or len(weights) != len(users) or any(w <= 0 for w in weights)
    ):
        raise ValidationFailed("weighted needs one positive weight per user.", field="weights")
    k = min(per_solution or project.overlap, len(users))
    solutions = list(
        _solutions(
            project=project,
            solution_ids=solution_ids,
            source=source,
            only_open=only_open,
            only_unassigned=only_unassigned,
            limit=limit,
        ).values_list("pk", flat=True)[: SOLUTIONS_MAX + 1]
    )
    _check_size(len(solutions), len(users) if strategy == "each" else k)
    existing = set(
        Assignment.objects.filter(solution_id__in=solutions).values_list("solution_id", "user_id")
    )
    rows = [
        Assignment(solution_id=solutions[i], user_id=user, created_by=created_by)
        for i, user in _plan(len(solutions), users, k, strategy, list(weights or []))
        if (solutions[i], user) not in existing
    ]
    return AssignmentPlan(solutions=len(solutions), rows=rows)


@transaction.atomic
def assignment_create(*, project: Project, user_ids: Sequence[int], **options) -> dict[int, int]:
    """Assign the chosen solutions to the users by `strategy` (options as `assignment_plan`);
    returns new assignments per user id (existing ones are kept)."""
    plan = assignment_plan(project=project, user_ids=user_ids, **options)
    Assignment.objects.bulk_create(plan.rows, batch_size=2000)
    queue_open_refresh(solution_ids=[row.solution_id for row in plan.rows])
    if plan.rows:  # the Assignments tab's stored counts (`unassigned`) are behind now
        source_counts_mark(project_id=project.pk)
    return plan.per_user(list(dict.fromkeys(user_ids)))


@transaction.atomic
def assignment_clear(
    *,
    project: Project,
    user_ids: Sequence[int] | None = None,
    solution_ids: Sequence[int] | None = None,
) -> int:
    """Remove assignments in the project (of some users / some solutions); returns how many."""
    qs = Assignment.objects.filter(solution__project=project)
    if user_ids is not None:
        qs = qs.filter(user_id__in=user_ids)
    if solution_ids is not None:
        qs = qs.filter(solution_id__in=solution_ids)
    solution_ids = list(qs.values_list("solution_id", flat=True).distinct())
    deleted, _ = qs.delete()
    queue_open_refresh(solution_ids=solution_ids)
    if deleted:
        source_counts_mark(project_id=project.pk)
    return deleted


def assignment_summary(*, project: Project) -> QuerySet:
    """Per assigned user: assigned solutions, and how many of them the user submitted (rows of
    `user_id`, `username`, `assigned`, `submitted`, by username)."""
    submitted = Annotation.objects.filter(
        solution_id=OuterRef("solution_id"),
        annotator_id=OuterRef("user_id"),
        status=AnnotationStatus.SUBMITTED,
    )
    return (
        Assignment.objects.filter(solution__project=project)
        .alias(done=Exists(submitted))
        .values("user_id", username=F("user__username"))
        .annotate(assigned=Count("id"), submitted=Count("id", filter=Q(done=True)))
        .order_by("username", "user_id")
    )
