"""What the gold rate is paced on: a member's submitted answers and gold answers, kept counted.

The queue serves a gold question when the user's gold answers fall behind the project's
`gold_rate` of all their answers (labeling.services.queue.claim._gold_due). Counting those answers
at every claim would cost O(the user's work in the project); instead the membership row keeps
both counts (ProjectMembership.answers, gold_answers) while the project has a gold rate:
a submit adds one, a rejection takes one back. Where the counts could have moved some other
way (a question made gold or plain again, an import with annotators, the gold rate turned on)
they are forgotten (NULL) and the next claim counts once and stores them. `NULL + 1` stays
NULL in SQL, so a bump never makes an unknown count look known.
"""

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, F, Q

from labeling.models import Annotation, AnnotationStatus, Project, ProjectMembership


def answers_counts(*, project: Project, user: AbstractBaseUser) -> tuple[int, int]:
    """(answers, gold answers) of the user in the project: stored, else counted and stored."""
    stored = (
        ProjectMembership.objects.filter(project=project, user=user)
        .values_list("answers", "gold_answers")
        .first()
    )
    if stored is not None and None not in stored:
        return stored
    counts = Annotation.objects.filter(
        solution__project=project, annotator=user, status=AnnotationStatus.SUBMITTED
    ).aggregate(total=Count("id"), gold=Count("id", filter=Q(solution__is_gold=True)))
    if stored is not None:
        ProjectMembership.objects.filter(project=project, user=user).update(
            answers=counts["total"], gold_answers=counts["gold"]
        )
    return counts["total"], counts["gold"]


def answers_bump(*, project: Project, user_id: int, by: int, gold: bool) -> None:
    """A submit (by=1) or a rejection (by=-1) of one of the user's answers. Only projects
    with a gold rate keep the counts (turning one on forgets them: `answers_forget`)."""
    if project.gold_rate <= 0:
        return
    ProjectMembership.objects.filter(project=project, user_id=user_id).update(
        answers=F("answers") + by, gold_answers=F("gold_answers") + (by if gold else 0)
    )


def answers_forget(*, project: Project, user_ids: Iterable[int] | None = None) -> None:
    """The counts may have moved without a bump: the next claim counts again."""
    members = ProjectMembership.objects.filter(project=project)
    if user_ids is not None:
        members = members.filter(user_id__in=list(user_ids))
    members.update(answers=None, gold_answers=None)


def answerers(*, solution_id: int) -> list[int]:
    """Users with a submitted answer to the solution (whose gold counts a flag change moves)."""
    return list(
        Annotation.objects.filter(
            solution_id=solution_id, status=AnnotationStatus.SUBMITTED, annotator__isnull=False
        ).values_list("annotator_id", flat=True)
    )
