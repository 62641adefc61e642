"""Reads: what a user may see and the payloads the API returns."""

from datetime import UTC, datetime, time

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db.models import (
    Count,
    Exists,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from labeling.models import (
    Annotation,
    AnnotationStatus,
    Assignment,
    Project,
    ProjectMembership,
    ReviewAction,
    Role,
    Solution,
    Step,
    TaskLock,
    problem_domain,
)
from labeling.pg.compiled import compile_queryset_once
from labeling.rules.overlap import complete_q, open_q, overlap_expression
from labeling.selectors.embodied import EMBODIED_STEP_KEYS, episode
from labeling.selectors.evidence import EVIDENCE_STEP_KEYS, evidence_sources
from labeling.selectors.guidelines import guidelines_shown
from labeling.steps.graphs import problem_graph
from labeling.steps.payload import payload_step_rows

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ROLE_RANK = {Role.ANNOTATOR: 1, Role.REVIEWER: 2, Role.ADMIN: 3}


def project_role(*, project: Project, user: AbstractBaseUser) -> str | None:
    """The user's role in the project; staff are admins everywhere."""
    if not user.is_authenticated:
        return None
    if user.is_staff:
        return Role.ADMIN
    return (
        ProjectMembership.objects.filter(project=project, user=user)
        .values_list("role", flat=True)
        .first()
    )


def has_role(*, project: Project, user: AbstractBaseUser, at_least: str) -> bool:
    role = project_role(project=project, user=user)
    return role is not None and ROLE_RANK[role] >= ROLE_RANK[at_least]


def project_list_for_user(*, user: AbstractBaseUser) -> QuerySet[Project]:
    qs = Project.objects.filter(deleted_at__isnull=True)
    if not user.is_staff:
        qs = qs.filter(memberships__user=user)
    role = ProjectMembership.objects.filter(project=OuterRef("pk"), user=user).values("role")
    return qs.annotate(my_role=Subquery(role[:1])).order_by("name")


def project_stats(*, project: Project) -> dict[str, int]:
    solutions = Solution.objects.filter(project=project)
    agg = solutions.aggregate(
        solutions=Count("id"),
        complete=Count("id", filter=complete_q(project.overlap)),
    )
    return {
        "problems": project.problems.count(),
        "solutions": agg["solutions"],
        "steps": Step.objects.filter(solution__project=project).count(),
        "submitted_annotations": Annotation.objects.filter(
            solution__project=project, status=AnnotationStatus.SUBMITTED, imported=False
        ).count(),
        "complete_solutions": agg["complete"],
    }


def _held_by_others(*, user: AbstractBaseUser, now: datetime):
    """Per solution (OuterRef "pk"): other annotators holding a slot besides submissions:
    live locks (of users without a rework draft there) plus rework drafts."""
    rework_users = Annotation.objects.filter(
        solution_id=OuterRef("solution_id"), status=AnnotationStatus.DRAFT, revises__isnull=False
    ).values("annotator_id")
    others_live = (
        TaskLock.objects.filter(solution_id=OuterRef("pk"), expires_at__gt=now)
        .exclude(user=user)
        .exclude(user_id__in=rework_users)
        .order_by()
        .values("solution_id")
        .annotate(n=Count("*"))
        .values("n")
    )
    # Rework drafts hold a rejected submission's slot (see labeling.services.queue.claim).
    reworks = (
        Annotation.objects.filter(
            solution_id=OuterRef("pk"), status=AnnotationStatus.DRAFT, revises__isnull=False
        )
        .exclude(annotator=user)
        .order_by()
        .values("solution_id")
        .annotate(n=Count("*"))
        .values("n")
    )
    return Coalesce(Subquery(others_live), 0) + Coalesce(Subquery(reworks), 0)


def solution_claimable_for_user(
    *, project: Project, user: AbstractBaseUser, now: datetime
) -> QuerySet[Solution]:
    """Solutions the user could claim now: not touched by them, overlap not taken by others.

    The overlap is each solution's effective one (labeling.rules.overlap). Annotated with
    `skipped` (the user discarded it before) and `assigned` (assigned to the user) for
    ordering. A solution assigned to others only is not claimable. This is the queue's rule,
    computed for every row (the progress count and the tests' reference order read it); a
    claim reads the same rule in bounded pieces (labeling.services.queue.claim).
    """
    assignments = Assignment.objects.filter(solution_id=OuterRef("pk"))
    mine = Annotation.objects.filter(solution_id=OuterRef("pk"), annotator=user)
    return (
        # Gold questions are served by their own rule (labeling.services.queue.claim), not as work.
        Solution.objects.filter(open_q(project.overlap), project=project, is_gold=False)
        .alias(
            touched=Exists(mine.exclude(status=AnnotationStatus.DISCARDED)),
            holders=F("submitted_count") + _held_by_others(user=user, now=now),
        )
        .annotate(
            skipped=Exists(mine.filter(status=AnnotationStatus.DISCARDED)),
            # Assigned solutions go to their assignees only, and to them first.
            assigned=Exists(assignments.filter(user=user)),
        )
        .filter(touched=False, holders__lt=overlap_expression(project.overlap))
        .filter(Q(assigned=True) | ~Exists(assignments))
    )


def solution_pool_for_user(
    *, project: Project, user: AbstractBaseUser, now: datetime
) -> QuerySet[Solution]:
    """The claimable solutions nobody is assigned to that the user never touched (not even
    skipped): the open pool, read through the partial index on `queue_open`. Filters are the
    live rule's, checked only on the rows the claim's index scan reads."""
    return (
        Solution.objects.filter(
            open_q(project.overlap),
            project=project,
            queue_open=True,
            is_gold=False,
        )
        .alias(holders=F("submitted_count") + _held_by_others(user=user, now=now))
        .filter(holders__lt=overlap_expression(project.overlap))
        .filter(~Exists(Annotation.objects.filter(solution_id=OuterRef("pk"), annotator=user)))
        .filter(~Exists(Assignment.objects.filter(solution_id=OuterRef("pk"))))
    )


def gold_claimable_for_user(*, project: Project, user: AbstractBaseUser) -> QuerySet[Solution]:
    """Gold questions the user has never been served (any annotation, even skipped), in order."""
    served = Annotation.objects.filter(solution_id=OuterRef("pk"), annotator=user)
    return Solution.objects.filter(project=project, is_gold=True).filter(~Exists(served))


def screening_status(*, project: Project, user: AbstractBaseUser) -> str:
    """'not_required', 'pending', 'passed' or 'failed' for the user in the project."""
    if not project.screening_size:
        return "not_required"
    membership = ProjectMembership.objects.filter(project=project, user=user).first()
    if membership is None or membership.role != Role.ANNOTATOR:
        return "not_required"  # staff, reviewers and admins are not screened
    return membership.screening or "pending"


# The progress bar counts the user's remaining work up to this many; past it, "1,000+ left"
# (counting a 1M-solution project on every claim would cost more than the claim).
REMAINING_CAP = 1000
PROJECT_TOTAL_TTL_S = 60


def _count_upto(qs: QuerySet, cap: int) -> int:
    return qs.order_by()[: cap + 1].count()


def project_progress_for_user(*, project: Project, user: AbstractBaseUser) -> dict:
    """The labeling page's top bar. Bounded like a claim: `remaining` counts the claim's three
    reads (labeling.services.queue.claim) up to REMAINING_CAP (then `remaining_capped`), and the
    project's size is cached for a minute."""
    now = timezone.now()
    start_of_day = timezone.make_aware(
        datetime.combine(timezone.localdate(), time.min), timezone.get_current_timezone()
    )
    mine = Annotation.objects.filter(
        solution__project=project, annotator=user, status=AnnotationStatus.SUBMITTED
    )
    claimable = solution_claimable_for_user(project=project, user=user, now=now)
    parts = (
        claimable.filter(pk__in=Assignment.objects.filter(user=user).values("solution_id")),
        solution_pool_for_user(project=project, user=user, now=now),
        claimable.filter(
            pk__in=Annotation.objects.filter(
                annotator=user, status=AnnotationStatus.DISCARDED, solution__project=project
            ).values("solution_id"),
            assigned=False,
        ),
        Annotation.objects.filter(
            solution__project=project, annotator=user, status=AnnotationStatus.DRAFT
        ),
    )
    remaining = 0
    for qs in parts:
        remaining += _count_upto(qs, REMAINING_CAP - remaining)
        if remaining > REMAINING_CAP:
            break
    total = cache.get_or_set(
        f"steplab:project-total:{project.pk}",
        lambda: Solution.objects.filter(project=project).count(),
        PROJECT_TOTAL_TTL_S,
    )
    return {
        "done_today": mine.filter(submitted_at__gte=start_of_day).count(),
        "submitted_total": mine.count(),
        "remaining": min(remaining, REMAINING_CAP),
        "remaining_capped": remaining > REMAINING_CAP,
        "project_total": total,
        "screening": screening_status(project=project, user=user),
    }


def solution_list(*, project: Project) -> QuerySet[Solution]:
    return (
        Solution.objects.filter(project=project)
        .annotate(steps_count=Count("steps"))
        .select_related("problem")
        .only(
            "id",
            "generator",
            "submitted_count",
            "answer_correct",
            "problem__text",
            "problem_id",
        )
        .order_by("id")
    )


# Agent steps' keys, then embodied steps' and evidence-cited steps' (selectors/embodied.py,
# evidence.py).
STEP_META_KEYS = ("kind", "role", "name", "arguments", "tool_call_id")
STEP_META_KEYS += EMBODIED_STEP_KEYS + EVIDENCE_STEP_KEYS


def media_urls(*, project_id: int, metadata: dict | None) -> list[str]:
    """The authenticated URLs of the images a problem's or step's metadata refers to."""
    refs = (metadata or {}).get("images") or []
    return [
        f"/api/projects/{project_id}/media/{ref['media']}"
        for ref in refs
        if isinstance(ref, dict) and isinstance(ref.get("media"), str)
    ]


def step_meta(metadata: dict | None) -> dict:
    """What the labeling and review pages need of a step's metadata (agent steps' kind...)."""
    return {k: metadata[k] for k in STEP_META_KEYS if k in (metadata or {})}


def tool_names(metadata: dict | None) -> list[str]:
    names = []
    for tool in (metadata or {}).get("tools") or []:
        spec = tool.get("function", tool) if isinstance(tool, dict) else None
        if isinstance(spec, dict) and isinstance(spec.get("name"), str):
            names.append(spec["name"])
    return names


# The labeling page's reads of one solution, compiled once (labeling.pg.compiled): every claim
# makes them.
def _payload_solution():
    return compile_queryset_once(
        ("payload solution",),
        lambda s: Solution.objects.select_related("problem", "project").filter(pk=s["solution"]),
        ints=("solution",),
    )


def task_payload(
    *, annotation: Annotation, lock_expires_at: datetime | None, created: bool = False
) -> dict:
    """Everything the labeling page needs for one solution, in one round of queries
    (`created`: the annotation was just made, so it has no labels to read)."""
    values = {"solution": annotation.solution_id}
    (solution,) = _payload_solution().fetch(values)
    project = solution.project
    steps = [
        {
            "id": step_id,
            "index": index,
            "text": text,
            "alternatives_count": alternatives_count,
            "meta": step_meta(metadata),
            "images": media_urls(project_id=project.id, metadata=metadata),
            "uses": uses,
            "uses_source": uses_source,
            "thinking": thinking,
            "suggestions": suggestions,
        }
        for (
            step_id,
            index,
            text,
            metadata,
            uses,
            uses_source,
            thinking,
            alternatives_count,
            suggestions,
        ) in payload_step_rows(solution_id=solution.id, suggestions=project.show_suggestions)
    ]
    problem = solution.problem
    return {
        "annotation": annotation_payload(annotation=annotation, labels=[] if created else None),
        "solution": {
            "id": solution.id,
            "generator": solution.generator,
            "final_answer": solution.final_answer,
            "answer_correct": solution.answer_correct,
            "steps": steps,
        },
        "problem": {
            "id": problem.id,
            "text": problem.text,
            "answer": problem.answer,
            "source": problem.source,
            "images": media_urls(project_id=project.id, metadata=problem.metadata),
            "tools": tool_names(problem.metadata),
            "graph": problem_graph(problem.metadata),
            "episode": episode(problem.metadata),
            # What renders the steps and which checkers apply: the problem's own domain in a
            # many-domains project, else the project's default (read in the same statement).
            "domain": problem_domain(problem.domain, project),
            **evidence_sources(problem.metadata),
        },
        "lock_expires_at": lock_expires_at,
        "rework": rework_payload(annotation=annotation),
        "project": {
            "id": project.id,
            "name": project.name,
            "guidelines": guidelines_shown(
                guidelines=project.guidelines, first_error_mode=project.first_error_mode
            ),
            "domain": project.domain,
            "first_error_mode": project.first_error_mode,
            "rating_values": list(project.rating_values),
            "show_suggestions": project.show_suggestions,
            "allow_resegment": project.allow_resegment,
        },
    }


def rework_payload(*, annotation: Annotation) -> dict | None:
    """For a draft a reviewer sent back: the rejection's comment, who wrote it and when."""
    if annotation.revises_id is None:
        return None
    rejection = (
        ReviewAction.objects.filter(annotation_id=annotation.revises_id, action="reject")
        .select_related("reviewer")
        .order_by("-id")
        .first()
    )
    return {
        "rejected_annotation_id": annotation.revises_id,
        "comment": rejection.comment if rejection else "",
        "reviewer": rejection.reviewer.username if rejection else None,
        "rejected_at": rejection.created_at if rejection else None,
    }


def annotation_payload(*, annotation: Annotation, labels: list | None = None) -> dict:
    """The annotation as the API answers it. Its labels: `labels`, else those a service just
    wrote (`written_labels`, in step order: labeling.services.labeling.annotations), else read."""
    if labels is None:
        labels = getattr(annotation, "written_labels", None)
    if labels is None:
        labels = annotation.labels.order_by("step__index").values(
            "step_id", "rating", "unsure", "comment", "alternative_text", "uses"
        )
    return {
        "id": annotation.id,
        "solution_id": annotation.solution_id,
        "status": annotation.status,
        "version": annotation.version,
        "finish_reason": annotation.finish_reason,
        "finish_reason_text": annotation.finish_reason_text,
        "time_spent_ms": annotation.time_spent_ms,
        "labels": list(labels),
        "updated_at": annotation.updated_at,
    }


def annotation_get_for_user(*, annotation_id: int, user: AbstractBaseUser) -> Annotation | None:
    """Annotators only ever see their own annotations. With its solution and project, and
    `member_role`: the user's membership role in that project (None: not a member)."""

    def build(s: dict) -> QuerySet[Annotation]:
        role = ProjectMembership.objects.filter(
            project=OuterRef("solution__project_id"), user_id=s["user"]
        )
        return (
            Annotation.objects.filter(pk=s["annotation"], annotator_id=s["user"])
            .select_related("solution__project")
            .annotate(member_role=Subquery(role.values("role")[:1]))
        )

    statement = compile_queryset_once(("annotation for user",), build, ints=("annotation", "user"))
    found = statement.fetch({"annotation": annotation_id, "user": user.pk})
    return found[0] if found else None
