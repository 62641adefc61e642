"""The solutions explorer's bulk actions on selected solutions or on all that match a filter.

Each action runs in one transaction over at most BULK_MAX solutions (a filter that matches
more is refused: narrow it), locks the solution rows it changes, and returns what it did:
how many matched, how many changed, and per reason how many it left as they were.

- send_to_review: a solution with submitted labels goes back to the review queue (whose
  "unresolved" view lists solutions without a current resolution): its current resolution is
  withdrawn (kept, not current, with a history row), as when its basis is rejected.
- requeue: a solution goes back into the open labeling pool: its assignments, which reserve it
  for their assignees, are removed. A complete solution (its submissions reached its effective
  overlap: the project's plus its own `extra_overlap`, labeling.rules.overlap) is reopened
  for exactly one more label: its `extra_overlap` is raised so that the effective overlap is
  its submissions + 1 (one more than before in the usual case, where they were equal), and its
  assignments are removed too. The queue then gives it to one annotator who has not labeled
  it (never to one who submitted it, nor to two at once); once that one submits it is complete
  again. Its current resolution, if any, stays: send it to review as well to withdraw that.
  The result counts these in `changed` and, of them, in `reopened`. Gold questions stay as
  they are (skipped "gold"), and so does a solution whose extra overlap would pass
  EXTRA_OVERLAP_MAX (skipped "extra_overlap_max").
- mark_gold: a reviewed solution becomes a gold question whose known labels are its current
  resolution's (labeling.services.gold.questions.gold_set); unreviewed ones are left.
- unmark_gold: gold questions stop being gold (their gold labels are kept).
"""

from collections import Counter
from typing import Any

from django.db import transaction
from django.db.models import Exists, F, OuterRef

from labeling.errors import ValidationFailed
from labeling.models import (
    EXTRA_OVERLAP_MAX,
    Annotation,
    AnnotationStatus,
    Assignment,
    Project,
    Resolution,
    Solution,
)
from labeling.pg.db_retry import retry_on_conflict
from labeling.rules.overlap import solution_overlap
from labeling.selectors.explorer import ExplorerFilter, explorer_solutions
from labeling.services.gold.questions import gold_set, gold_unset
from labeling.services.projects.metrics_version import metrics_version_bump_of_solutions
from labeling.services.queue.assignments import assignment_clear
from labeling.services.queue.pool import queue_open_refresh
from labeling.services.review.resolutions import resolution_withdraw

BULK_MAX = 5000
BULK_ACTIONS = ("send_to_review", "requeue", "mark_gold", "unmark_gold")


def explorer_bulk_targets(
    *, project: Project, ids: list[int] | None, filters: ExplorerFilter | None
) -> list[int]:
    """The project's solution ids an action applies to: the given ids (other projects' and
    unknown ids dropped), or every solution matching `filters` (at most BULK_MAX)."""
    if ids is not None:
        if len(ids) > BULK_MAX:
            raise ValidationFailed(f"At most {BULK_MAX} solutions at once.", field="ids")
        qs = Solution.objects.filter(project=project, pk__in=ids).order_by("id")
        return list(qs.values_list("pk", flat=True))
    if filters is None:
        raise ValidationFailed("Give the solution ids or a filter.", field="ids")
    matched = list(
        explorer_solutions(project=project, filters=filters).values_list("pk", flat=True)[
            : BULK_MAX + 1
        ]
    )
    if len(matched) > BULK_MAX:
        raise ValidationFailed(
            f"More than {BULK_MAX} solutions match: narrow the filter.", field="filter"
        )
    return sorted(matched)


@retry_on_conflict
@transaction.atomic
def explorer_bulk(
    *,
    project: Project,
    action: str,
    user: Any,
    ids: list[int] | None = None,
    filters: ExplorerFilter | None = None,
) -> dict:
    """Apply `action` (BULK_ACTIONS) to the targets; {action, matched, changed, reopened,
    skipped}: `reopened` (requeue only, else 0) counts the complete solutions of `changed`
    reopened for one more label."""
    if action not in BULK_ACTIONS:
        raise ValidationFailed(f"Unknown action {action!r}.", field="action")
    targets = explorer_bulk_targets(project=project, ids=ids, filters=filters)
    # Row locks in id order, as the services that change one solution take them.
    solutions = list(
        Solution.objects.select_for_update(of=("self",))
        .filter(pk__in=targets)
        .order_by("id")
        .annotate(
            submitted=Exists(
                Annotation.objects.filter(
                    solution_id=OuterRef("pk"), status=AnnotationStatus.SUBMITTED
                )
            ),
            assigned=Exists(Assignment.objects.filter(solution_id=OuterRef("pk"))),
        )
    )
    skipped: Counter[str] = Counter()
    done: Counter[str] = Counter()  # what `changed` holds, per kind an action tells apart
    changed = {
        "send_to_review": _send_to_review,
        "requeue": _requeue,
        "mark_gold": _mark_gold,
        "unmark_gold": _unmark_gold,
    }[action](project=project, solutions=solutions, user=user, skipped=skipped, done=done)
    if changed:  # gold, overlap, resolutions: the targets' parts recomputed, logged
        metrics_version_bump_of_solutions(
            project_id=project.pk, solution_ids=[solution.pk for solution in solutions]
        )
    return {
        "action": action,
        "matched": len(solutions),
        "changed": changed,
        "reopened": done["reopened"],
        "skipped": dict(skipped),
    }


def _current(solutions: list[Solution]) -> dict[int, Resolution]:
    return {
        r.solution_id: r
        for r in Resolution.objects.filter(
            solution_id__in=[s.pk for s in solutions], is_current=True
        ).prefetch_related("labels")
    }


def _send_to_review(
    *,
    project: Project,
    solutions: list[Solution],
    user: Any,
    skipped: Counter[str],
    done: Counter[str],
) -> int:
    current = _current(solutions)
    changed = 0
    for solution in solutions:
        if not solution.submitted:
            skipped["no_submissions"] += 1
        elif solution.pk not in current:
            skipped["already_in_review"] += 1
        else:
            resolution_withdraw(resolution=current[solution.pk], user=user)
            changed += 1
    return changed


def _requeue(
    *,
    project: Project,
    solutions: list[Solution],
    user: Any,
    skipped: Counter[str],
    done: Counter[str],
) -> int:
    """Release assigned solutions into the open pool; reopen complete ones for one more label
    (the module docstring). The rows are locked, so their counts are current."""
    release, reopen = [], []
    for solution in solutions:
        if solution.is_gold:
            skipped["gold"] += 1
        elif solution.submitted_count >= solution_overlap(project=project, solution=solution):
            if solution.submitted_count + 1 - project.overlap > EXTRA_OVERLAP_MAX:
                skipped["extra_overlap_max"] += 1
            else:
                reopen.append(solution.pk)
        elif not solution.assigned:
            skipped["already_open"] += 1
        else:
            release.append(solution.pk)
    if reopen:
        # Effective overlap = submissions + 1: exactly one more annotator.
        Solution.objects.filter(pk__in=reopen).update(
            extra_overlap=F("submitted_count") + 1 - project.overlap
        )
        queue_open_refresh(solution_ids=reopen)
    reopened = set(reopen)
    assigned = [s.pk for s in solutions if s.assigned and s.pk in reopened]
    if release or assigned:
        assignment_clear(project=project, solution_ids=release + assigned)
    done["reopened"] = len(reopen)
    return len(release) + len(reopen)


def _mark_gold(
    *,
    project: Project,
    solutions: list[Solution],
    user: Any,
    skipped: Counter[str],
    done: Counter[str],
) -> int:
    current = _current(solutions)
    changed = 0
    steps: dict[int, list[int]] = {}
    for step_id, solution_id in (
        Solution.objects.filter(pk__in=[s.pk for s in solutions])
        .values_list("steps__id", "pk")
        .order_by("pk", "steps__index")
    ):
        if step_id is not None:
            steps.setdefault(solution_id, []).append(step_id)
    for solution in solutions:
        if solution.is_gold:
            skipped["already_gold"] += 1
            continue
        resolution = current.get(solution.pk)
        if resolution is None:
            skipped["not_reviewed"] += 1
            continue
        ratings = {label.step_id: label.rating for label in resolution.labels.all()}
        labels = [{"step_id": s, "rating": ratings.get(s)} for s in steps.get(solution.pk, [])]
        gold_set(solution=solution, labels=labels, user=user)
        changed += 1
    return changed


def _unmark_gold(
    *,
    project: Project,
    solutions: list[Solution],
    user: Any,
    skipped: Counter[str],
    done: Counter[str],
) -> int:
    changed = 0
    for solution in solutions:
        if not solution.is_gold:
            skipped["not_gold"] += 1
            continue
        gold_unset(solution=solution)
        changed += 1
    return changed
