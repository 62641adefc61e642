"""Claiming solutions for annotators: the task queue with per-user locks.

Invariant: at any moment, for every solution,
    submitted annotations + rework drafts + other annotators holding an unexpired lock
    <= overlap,
where a solution's overlap is its project's plus its own `extra_overlap` (a requeue from the
explorer raises that by one: labeling.rules.overlap).
A rework draft (a reviewer rejected the annotator's submission: `Annotation.revises` is set)
holds the rejected submission's slot with or without a lock, so the solution waits for its
annotator instead of being handed to someone new; its annotator is served it first.
Claims run inside a transaction that row-locks the candidate solution with
`SELECT ... FOR UPDATE SKIP LOCKED`, so concurrent claimers never wait on each other, and then
re-count the solution's holders in a fresh statement: under READ COMMITTED a claimer whose
candidate query started before another claim committed could otherwise see a stale count.

A claim costs the same at any project size: it never computes the order over the project.
Regular work comes from three bounded reads, in order (`_claim_phases`): the user's own
assignments; the open pool (Solution.queue_open) walked in the order's index, where the
per-user exclusions (touched, held by others, assigned) are checked only on the rows the walk
reads, which are about as many as there are annotators working; and last, what the user
skipped. The first row that passes is row-locked in the same statement
(`FOR UPDATE SKIP LOCKED ... LIMIT 1`). tests/concurrency/test_claim_plan.py proves the bound
from PostgreSQL's plan; tests/services/test_claim_order.py that the three reads serve the
order `candidates_ordered` defines over the whole project.
"""

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Exists, F, OuterRef, QuerySet
from django.utils import timezone

from labeling.models import (
    Annotation,
    AnnotationStatus,
    Assignment,
    Project,
    ProjectMembership,
    Role,
    Screening,
    Solution,
    TaskLock,
)
from labeling.pg.compiled import compile_once, hot_cursor
from labeling.pg.db_retry import retry_on_conflict
from labeling.pg.writes_joined import write
from labeling.rules.overlap import solution_overlap
from labeling.selectors.labeling_page import (
    gold_claimable_for_user,
    solution_claimable_for_user,
    solution_pool_for_user,
)
from labeling.services.gold.pace import answers_counts
from labeling.services.gold.questions import screening_answers, screening_evaluate
from labeling.services.queue.take import (
    Claim,
    annotation_new,
    claim_take,
    lock_take,
    overlap_holders,
)

CANDIDATE_BATCH = 16
# What a claim's locking read of a candidate answers: the id, and the solution's own extra
# overlap for the claim's check (labeling.services.queue.take.claim_take).
_LOCKED_COLUMNS = ("pk", "extra_overlap")


def _select_for_update(qs: QuerySet) -> QuerySet:
    if connection.features.has_select_for_update_skip_locked:
        return qs.select_for_update(skip_locked=True, of=("self",))
    return qs  # SQLite: the IMMEDIATE transaction already serializes writers.


def _resume_draft(*, project: Project, user: AbstractBaseUser, now) -> Claim | None:
    drafts = (
        Annotation.objects.filter(
            annotator=user, solution__project=project, status=AnnotationStatus.DRAFT
        )
        .annotate(
            live=Exists(
                TaskLock.objects.filter(
                    solution_id=OuterRef("solution_id"), user=user, expires_at__gt=now
                )
            )
        )
        # The draft being worked on, then rework a reviewer sent back, then older drafts.
        .order_by("-live", F("revises_id").asc(nulls_last=True), "-updated_at")
    )
    for draft in drafts:
        rows = Solution.objects.filter(pk=draft.solution_id)
        # The draft being worked on waits for its row (another annotator's claim holds it for a
        # moment): passing over it would serve this user a second solution, or "all done".
        rows = rows.select_for_update(of=("self",)) if draft.live else _select_for_update(rows)
        solution = rows.first()
        if solution is None:
            continue  # another transaction holds it right now; try the next draft
        holders = overlap_holders(solution.pk, exclude_user_id=user.pk, now=now)
        if (
            draft.live
            or draft.revises_id is not None
            or solution.is_gold  # gold has no overlap: everyone answers it
            or holders < solution_overlap(project=project, solution=solution)
        ):
            lock = lock_take(
                solution_id=solution.pk, user=user, ttl=project.lock_ttl_seconds, now=now
            )
            return Claim(annotation=draft, lock=lock)
    return None


# Opt-in claim orders from other apps (training_runs' PRM active learning registers one in its
# AppConfig.ready): each returns the candidates ordered, or None when the project has not
# opted in. Only the order changes; which solutions are claimable never does: solutions
# assigned to the user still come first and skipped ones last (the queue puts `-assigned`,
# `skipped` around the hook's keys). Gold questions and rework are served before any
# candidate, whatever the order. A hook's keys should be served by an index over the open
# pool (as labeling.pg.claim_keys' are), or a claim in that order sorts the pool.
CANDIDATE_ORDERINGS: list[Callable[..., QuerySet | None]] = []


# The default claim order: partly labeled solutions first (overlap first), then by id.
_DEFAULT_KEYS = (F("submitted_count").desc(), "id")


def _claim_order(
    *, project: Project, candidates: QuerySet, orderings: Sequence[Callable] = ()
) -> tuple[QuerySet, list]:
    """The candidates with the active order's aliases, and its keys: an opted-in order from
    `orderings` (all of CANDIDATE_ORDERINGS unless the caller knows which applies:
    `_order_hook`), else overlap-first (finish partly labeled solutions before opening new
    ones), then by id."""
    for ordering in orderings or CANDIDATE_ORDERINGS:
        ordered = ordering(project=project, candidates=candidates)
        if ordered is not None:
            return ordered, list(ordered.query.order_by or ordered.model._meta.ordering)
    return candidates, list(_DEFAULT_KEYS)


def _order_hook(project: Project) -> int | None:
    """Which CANDIDATE_ORDERINGS entry orders the project's claims (None: the default)."""
    probe = Solution.objects.none()
    for index, ordering in enumerate(CANDIDATE_ORDERINGS):
        if ordering(project=project, candidates=probe) is not None:
            return index
    return None


def candidates_ordered(*, project: Project, candidates: QuerySet) -> QuerySet:
    """The claim order over `solution_claimable_for_user`: solutions assigned to the user
    first, always; skipped ones last; the order's keys (`_claim_order`) between."""
    ordered, keys = _claim_order(project=project, candidates=candidates)
    return ordered.order_by("-assigned", "skipped", *keys)


_EDGES_SQL = """
SELECT
  EXISTS (SELECT 1 FROM labeling_annotation n JOIN labeling_solution s ON s.id = n.solution_id
          WHERE n.annotator_id = %s AND n.status = %s AND s.project_id = %s),
  EXISTS (SELECT 1 FROM labeling_assignment a JOIN labeling_solution s ON s.id = a.solution_id
          WHERE a.user_id = %s AND s.project_id = %s),
  EXISTS (SELECT 1 FROM labeling_annotation n JOIN labeling_solution s ON s.id = n.solution_id
          WHERE n.annotator_id = %s AND n.status = %s AND s.project_id = %s)
"""


def _claims_serialized(*, project: Project, user: AbstractBaseUser) -> None:
    """Wait for any other claim of this user in this project to commit (a second tab or browser
    session, a submit-and-next racing a reload), so that this one sees its draft and resumes it.
    Without it both claims read "no draft" at once and each took a solution from the pool with
    SKIP LOCKED: the user held two drafts, or the second was told "all done" while the first
    held the project's last solution. A transaction-level advisory lock on (project, user):
    claims of other users never wait on it. SQLite serializes writers already."""
    if connection.vendor != "postgresql":
        return
    with hot_cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, %s)",
            [project.pk & 0x7FFFFFFF, user.pk & 0x7FFFFFFF],
        )


@dataclass(frozen=True)
class Edges:
    """What the user has in the project besides the open pool (one query tells): a claim
    builds the reads for drafts, assignments and skips only when there are any."""

    drafts: bool
    assigned: bool
    skipped: bool


def _edges(*, project: Project, user: AbstractBaseUser) -> Edges:
    with hot_cursor() as cursor:
        cursor.execute(
            _EDGES_SQL,
            [user.pk, AnnotationStatus.DRAFT, project.pk]
            + [user.pk, project.pk]
            + [user.pk, AnnotationStatus.DISCARDED, project.pk],
        )
        return Edges(*cursor.fetchone())


def _claim_phases(
    *, project: Project, user: AbstractBaseUser, now, edges: Edges | None = None
) -> "Iterator[QuerySet | _Pool]":
    """Regular work's candidates in `candidates_ordered`'s order, as three queries that each
    read a bounded number of rows (see the module docstring). The first and last are built
    only for a user with assignments or skips in the project (`edges`), and only when the
    claim gets to them: building `solution_claimable_for_user` costs about 2 ms of CPU, most
    of a claim's, and a user with skips is usually served from the pool before them."""
    edges = edges or _edges(project=project, user=user)
    claimable = None
    if edges.assigned:
        claimable = solution_claimable_for_user(project=project, user=user, now=now)
        assigned = Assignment.objects.filter(user=user).values("solution_id")
        yield candidates_ordered(project=project, candidates=claimable.filter(pk__in=assigned))
    yield _Pool()
    if edges.skipped:
        if claimable is None:
            claimable = solution_claimable_for_user(project=project, user=user, now=now)
        skipped = Annotation.objects.filter(
            annotator=user, status=AnnotationStatus.DISCARDED, solution__project=project
        ).values("solution_id")
        yield candidates_ordered(
            project=project, candidates=claimable.filter(pk__in=skipped, assigned=False)
        )


class _Pool:
    """The open pool's phase: `solution_pool_for_user` in the claim order, whose first read
    runs as SQL compiled once per order (labeling.pg.compiled); a retry (the first row was taken
    between the read and the lock) builds the query with the rows to pass over."""

    def queryset(self, *, project: Project, user: AbstractBaseUser, now) -> QuerySet:
        pool = solution_pool_for_user(project=project, user=user, now=now)
        ordered, keys = _claim_order(project=project, candidates=pool)
        return ordered.order_by(*keys)

    def first(self, *, project: Project, user: AbstractBaseUser, now) -> tuple[int, int] | None:
        """The first row's (id, extra_overlap), row-locked."""
        hook = _order_hook(project)

        def build(s: dict) -> tuple[str, list]:
            pool = solution_pool_for_user(
                project=Project(pk=s["project"], overlap=s["overlap"]),
                user=get_user_model()(pk=s["user"]),
                now=s["now"],
            )
            if hook is None:  # the default order
                ordered, keys = pool, list(_DEFAULT_KEYS)
            else:
                ordering = CANDIDATE_ORDERINGS[hook]
                ordered, keys = _claim_order(project=project, candidates=pool, orderings=[ordering])
            first = _select_for_update(ordered.order_by(*keys)).values_list(*_LOCKED_COLUMNS)
            return first[:1].query.sql_with_params()

        statement = compile_once(
            ("claim pool", hook), build, ints=("project", "overlap", "user"), times=("now",)
        )
        values = {"project": project.pk, "overlap": project.overlap, "user": user.pk, "now": now}
        with hot_cursor() as cursor:
            statement.execute(cursor, values)
            row = cursor.fetchone()
        return tuple(row) if row else None


def _claim_first(
    candidates: "QuerySet | _Pool", *, project: Project, user: AbstractBaseUser, now
) -> Claim | None:
    """Lock and claim the first candidate still claimable once locked (`SKIP LOCKED`: rows a
    concurrent claimer holds are passed over, never waited on). The locking read brings the
    row's `extra_overlap` along for the claim's overlap check."""
    passed: list[int] = []
    while True:
        if isinstance(candidates, _Pool) and not passed:
            first = candidates.first(project=project, user=user, now=now)
            found = [] if first is None else [first]
        else:
            if isinstance(candidates, _Pool):
                candidates = candidates.queryset(project=project, user=user, now=now)
            remaining = candidates.exclude(pk__in=passed) if passed else candidates
            found = list(_select_for_update(remaining).values_list(*_LOCKED_COLUMNS)[:1])
        if not found:
            return None
        solution_id, extra_overlap = found[0]
        claim = claim_take(
            solution_id, extra_overlap=extra_overlap, project=project, user=user, now=now
        )
        if claim is not None:
            return claim
        passed.append(solution_id)  # taken between the candidate read and the lock


def _claim_gold(*, project: Project, user: AbstractBaseUser, now) -> Claim | None:
    """The user's next unseen gold question, if any. Gold has no overlap: every annotator
    answers each gold question once; the row lock only keeps one user's two tabs apart."""
    candidates = gold_claimable_for_user(project=project, user=user).order_by("id")
    for solution_id in candidates.values_list("pk", flat=True)[:CANDIDATE_BATCH]:
        if _select_for_update(Solution.objects.filter(pk=solution_id)).first() is None:
            continue
        if Annotation.objects.filter(solution_id=solution_id, annotator=user).exists():
            continue
        lock = lock_take(solution_id=solution_id, user=user, ttl=project.lock_ttl_seconds, now=now)
        annotation = annotation_new(solution_id=solution_id, user=user, now=now)
        return Claim(annotation=annotation, lock=lock, created=True)
    return None


def _gold_due(*, project: Project, user: AbstractBaseUser) -> bool:
    """Serve gold at `gold_rate` of claims, evenly: when the user's gold answers fall behind
    floor(rate x (answers + 1)). Rate 0.25 gives work, work, work, gold, work, ..."""
    if project.gold_rate <= 0:
        return False
    total, gold = answers_counts(project=project, user=user)  # kept counts: one row read
    return gold < math.floor(project.gold_rate * (total + 1))


def _screening(*, project: Project, user: AbstractBaseUser, now) -> tuple[bool, Claim | None]:
    """(blocked, claim): a new annotator answers `screening_size` gold questions first, then is
    judged on them (labeling.services.gold.questions.screening_evaluate); a failed one gets
    no work."""
    if not project.screening_size:
        return False, None
    membership = ProjectMembership.objects.filter(project=project, user=user).first()
    if membership is None or membership.role != Role.ANNOTATOR:
        return False, None
    if membership.screening:
        return membership.screening == Screening.FAILED, None
    answered = screening_answers(project=project, user=user, membership=membership).count()
    if answered < project.screening_size:
        claim = _claim_gold(project=project, user=user, now=now)
        if claim is not None:
            return False, claim
        if answered == 0:
            return False, None  # no gold questions to screen with
    verdict = screening_evaluate(project=project, user=user)
    return verdict == Screening.FAILED, None


@retry_on_conflict
@transaction.atomic(savepoint=False)  # inside a caller's transaction, no savepoint of its own
def task_claim_next(*, project: Project, user: AbstractBaseUser) -> Claim | None:
    """Return the user's next solution: their own draft first, else claim a fresh one.

    Never serves a solution the user already submitted or is drafting, nor one whose overlap is
    taken by other annotators' submissions and live locks. Returns None when nothing is left.
    Before regular work: the screening set for a new annotator (None once they failed it),
    then a gold question when one is due at the project's `gold_rate`.
    """
    _claims_serialized(project=project, user=user)
    now = timezone.now()
    edges = _edges(project=project, user=user)
    if edges.drafts:
        resumed = _resume_draft(project=project, user=user, now=now)
        if resumed is not None:
            return resumed
    blocked, screening_claim = _screening(project=project, user=user, now=now)
    if blocked:
        return None
    if screening_claim is not None:
        return screening_claim
    if _gold_due(project=project, user=user):
        gold = _claim_gold(project=project, user=user, now=now)
        if gold is not None:
            return gold

    for candidates in _claim_phases(project=project, user=user, now=now, edges=edges):
        claim = _claim_first(candidates, project=project, user=user, now=now)
        if claim is not None:
            return claim
    return None


def task_lock_extend(*, annotation: Annotation, project: Project) -> TaskLock:
    """Heartbeat: saving a draft keeps the annotator's claim alive."""
    return lock_take(
        solution_id=annotation.solution_id,
        user=annotation.annotator,
        ttl=project.lock_ttl_seconds,
        now=timezone.now(),
    )


def task_release(*, solution_id: int, user: AbstractBaseUser) -> None:
    # A plain DELETE: nothing refers to a lock, and every submit runs it (joined to its label
    # writes: labeling.pg.writes_joined).
    write(
        "DELETE FROM labeling_tasklock WHERE solution_id = %s AND user_id = %s",
        [solution_id, user.pk],
    )


def task_lock_holds(*, solution_id: int, user: AbstractBaseUser) -> bool:
    return TaskLock.objects.filter(
        solution_id=solution_id, user=user, expires_at__gt=timezone.now()
    ).exists()
