"""The claim pool's stored flag: Solution.queue_open, refreshed by the services.

A solution is in the pool when it is not gold, nobody is assigned to it, and it has fewer
submissions than its effective overlap (its project's plus its own `extra_overlap`). Every
service that changes one of those (submit, a reviewer's reject, gold set/unset, assignments,
the project's overlap, the explorer's requeue) calls
`queue_open_refresh` for the solutions it touched, inside its own transaction; new rows get
the column's database default (open), which imports rely on. The claim's pool query keeps the
live conditions too, so a flag left open by a write past the services costs a skipped row,
never a wrong claim; one left closed would hide work, which tests/services/test_queue_open.py
guards by replaying random service sequences against the live rule.
`manage.py queue_refresh` recomputes whole projects after edits past the services (admin,
raw SQL), range by range (`queue_open_fill`). Whole-project refreshes write only the rows whose
flag changes: an overlap change flips the solutions at the old or new overlap, not a million.

The project's overlap changed, every solution's flag may change: that is a walk of the whole
project (seconds at a million solutions), so the request only marks the project
(`queue_refresh_since`) and queues a background job (`project_queue_refresh_later`), which
refreshes range by range, each range its own transaction, and clears the mark. Meanwhile the
claim stays right: it checks the live overlap, so a flag still open past a lowered overlap
costs a skipped row; a flag still closed under a raised one keeps that solution out of the
pool until the job reaches it.
"""

from collections.abc import Callable, Iterable

from django.db.models import Exists, ExpressionWrapper, F, OuterRef, Q, Subquery
from django.db.models.fields import BooleanField
from django.utils import timezone

from labeling.models import Assignment, Project, Solution
from labeling.pg.id_ranges import FillProgress, walk_ranges
from labeling.services.jobs.outbox import outbox_add

REFRESH_TASK = "labeling.tasks.project_queue_refresh_task"

BATCH = 20_000  # solutions per transaction of queue_open_fill

CHUNK = 5000  # ids per UPDATE: SQLite caps the parameters of one statement


def queue_open_expression() -> ExpressionWrapper:
    """The live rule, as SQL over a Solution row."""
    overlap = Subquery(Project.objects.filter(pk=OuterRef("project_id")).values("overlap")[:1])
    return ExpressionWrapper(
        Q(is_gold=False)
        & Q(submitted_count__lt=overlap + F("extra_overlap"))
        & ~Exists(Assignment.objects.filter(solution_id=OuterRef("pk"))),
        output_field=BooleanField(),
    )


def queue_open_refresh(
    *, solution_ids: Iterable[int] | None = None, project: Project | None = None
) -> int:
    """Recompute the flag of the given solutions, or of all of a project's; returns rows.

    Callers hold the solution rows' locks where a race matters (submit and reject lock the
    solution first); the UPDATE itself reads the committed state of the other inputs.
    """
    if (solution_ids is None) == (project is None):
        raise TypeError("Pass solution_ids or project.")
    if project is not None:
        return _changed(Solution.objects.filter(project=project))
    ids = sorted(set(solution_ids))
    return sum(
        Solution.objects.filter(pk__in=ids[i : i + CHUNK]).update(
            queue_open=queue_open_expression()
        )
        for i in range(0, len(ids), CHUNK)
    )


def _changed(solutions) -> int:
    """Store the flag of those of `solutions` whose flag is not the live rule's."""
    rule = queue_open_expression()
    return solutions.exclude(queue_open=rule).update(queue_open=rule)


def queue_open_fill(
    *,
    project: Project,
    batch: int = BATCH,
    after: int = 0,
    progress: Callable[[FillProgress], None] | None = None,
) -> int:
    """Recompute a project's flags range by range (ids above `after`), each range in its own
    transaction; returns the solutions walked, `progress` gets the totals after each range."""

    def one_range(lo: int, hi: int) -> tuple[int, int]:
        solutions = Solution.objects.filter(project=project, pk__range=(lo, hi))
        return solutions.count(), _changed(solutions)

    return walk_ranges(
        project_id=project.pk, one_range=one_range, batch=batch, after=after, progress=progress
    ).solutions


def project_queue_refresh_later(*, project: Project) -> None:
    """Mark the project's flags as being refreshed and queue the job that refreshes them
    (sent after the caller's commit, through the outbox): a fixed number of statements, for
    a request that changed the overlap. Call inside the caller's transaction."""
    project.queue_refresh_since = timezone.now()
    Project.objects.filter(pk=project.pk).update(queue_refresh_since=project.queue_refresh_since)
    outbox_add(task=REFRESH_TASK, args=[project.pk])


def project_queue_refresh(*, project_id: int, batch: int = BATCH) -> int:
    """The job: every flag of the project recomputed range by range (`queue_open_fill`,
    idempotent: a redelivery, or the recovery sweep's resend after a killed worker, walks
    again), then the mark cleared unless another change marked it since (its own job, queued
    behind, walks again). Returns the solutions walked."""
    project = Project.objects.filter(pk=project_id).first()
    if project is None:
        return 0
    since = project.queue_refresh_since
    walked = queue_open_fill(project=project, batch=batch)
    Project.objects.filter(pk=project_id, queue_refresh_since=since).update(
        queue_refresh_since=None
    )
    return walked
