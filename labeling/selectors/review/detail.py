"""One solution's review page: every annotation side by side per step, with suggestions,
gold, resolutions, comments, reviews and label history."""

from django.db.models import Count, Prefetch

from labeling.models import (
    Annotation,
    AnnotationStatus,
    Comment,
    Resolution,
    ReviewAction,
    Solution,
    StepLabel,
    Suggestion,
    problem_domain,
)
from labeling.selectors.embodied import episode
from labeling.selectors.evidence import evidence_sources
from labeling.selectors.labeling_page import media_urls, step_meta, tool_names
from labeling.steps.graphs import problem_graph
from labeling.steps.payload import suggestion_payload

from .feedback import comment_rows, label_history_rows, review_action_rows
from .queue import with_review_reasons
from .reasons import first_error_subquery, item_reasons
from .step_marks import step_marks


def _annotator_name(annotation: Annotation) -> str:
    if annotation.annotator_id is not None:
        return annotation.annotator.username
    return annotation.external_annotator or "imported"


def resolution_payload(resolution: Resolution | None) -> dict | None:
    """A resolution as the review API shows it; reads its annotations and labels through
    `.all()`, so a caller that prefetched them pays no query."""
    if resolution is None:
        return None
    return {
        "id": resolution.id,
        "provenance": resolution.provenance,
        "first_error_index": resolution.first_error_index,
        "resolved_by": resolution.resolved_by.username if resolution.resolved_by else None,
        "annotation_ids": sorted(a.pk for a in resolution.annotations.all()),
        "is_current": resolution.is_current,
        "created_at": resolution.created_at,
        "labels": [
            {"step_id": lab.step_id, "rating": lab.rating, "uses": lab.uses}
            for lab in resolution.labels.all()
        ],
    }


def review_detail(*, solution: Solution) -> dict:
    """The review page: every annotation side by side per step, suggestions with evidence,
    gold, comments, reviews, label history and resolutions. A fixed number of queries."""
    solution = (
        with_review_reasons(Solution.objects.filter(pk=solution.pk), scope={"pk": solution.pk})
        .select_related("problem", "project")
        .get()
    )
    annotations = list(
        Annotation.objects.filter(solution=solution)
        .exclude(status=AnnotationStatus.DISCARDED)
        .select_related("annotator")
        .annotate(first_error_index=first_error_subquery())
        .prefetch_related(Prefetch("labels", queryset=StepLabel.objects.order_by("step_id")))
        .order_by("id")
    )
    steps = list(
        solution.steps.order_by("index")
        .select_related("gold")
        .prefetch_related(
            Prefetch("suggestions", queryset=Suggestion.objects.order_by("source", "agent"))
        )
        .annotate(alternatives_count=Count("alternatives"))
    )
    by_annotation = {a.pk: {lab.step_id: lab for lab in a.labels.all()} for a in annotations}
    resolutions = list(
        Resolution.objects.filter(solution=solution)
        .select_related("resolved_by")
        .prefetch_related("annotations", "labels")
        .order_by("-id")
    )
    current = next((r for r in resolutions if r.is_current), None)
    resolved = {lab.step_id: lab.rating for lab in current.labels.all()} if current else {}

    submitted = [a.pk for a in annotations if a.status == AnnotationStatus.SUBMITTED]

    def marks(step) -> dict:
        ratings = (by_annotation[pk].get(step.id) for pk in submitted)
        return step_marks(
            human_ratings=(lab.rating for lab in ratings if lab is not None),
            machine_values=((s.source, s.value) for s in step.suggestions.all()),
        )

    def gold_rating(step) -> int | None:
        gold = getattr(step, "gold", None) if solution.is_gold else None
        return gold.rating if gold else None

    return {
        "solution": {
            "id": solution.id,
            "generator": solution.generator,
            "final_answer": solution.final_answer,
            "answer_correct": solution.answer_correct,
            "is_gold": solution.is_gold,
            "source": solution.source,
        },
        "problem": {
            "id": solution.problem.id,
            "text": solution.problem.text,
            "answer": solution.problem.answer,
            "source": solution.problem.source,
            "images": media_urls(
                project_id=solution.project_id, metadata=solution.problem.metadata
            ),
            "tools": tool_names(solution.problem.metadata),
            "graph": problem_graph(solution.problem.metadata),
            "episode": episode(solution.problem.metadata),
            "domain": problem_domain(solution.problem.domain, solution.project),
            **evidence_sources(solution.problem.metadata),
        },
        "project": {
            "id": solution.project.id,
            "name": solution.project.name,
            "rating_values": list(solution.project.rating_values),
            "first_error_mode": solution.project.first_error_mode,
            "domain": solution.project.domain,
        },
        "reasons": item_reasons(solution),
        "annotators_submitted": len(submitted),
        "annotations": [
            {
                "id": a.id,
                "annotator": _annotator_name(a),
                "annotator_id": a.annotator_id,
                "imported": a.imported,
                "status": a.status,
                "revises_id": a.revises_id,
                "finish_reason": a.finish_reason,
                "finish_reason_text": a.finish_reason_text,
                "time_spent_ms": a.time_spent_ms,
                "submitted_at": a.submitted_at,
                "first_error_index": a.first_error_index,
            }
            for a in annotations
        ],
        "steps": [
            {
                "id": step.id,
                "index": step.index,
                "text": step.text,
                "meta": step_meta(step.metadata),
                "images": media_urls(project_id=solution.project_id, metadata=step.metadata),
                "alternatives_count": step.alternatives_count,
                "uses": step.uses,
                "uses_source": step.uses_source,
                "thinking": step.thinking,
                "gold_rating": gold_rating(step),
                "resolved_rating": resolved.get(step.id),
                "labels": [
                    {
                        "annotation_id": a.id,
                        "rating": lab.rating if lab else None,
                        "unsure": lab.unsure if lab else False,
                        "comment": lab.comment if lab else "",
                        "alternative_text": lab.alternative_text if lab else "",
                        "uses": lab.uses if lab else None,
                    }
                    for a in annotations
                    for lab in [by_annotation[a.pk].get(step.id)]
                ],
                "suggestions": [suggestion_payload(s) for s in step.suggestions.all()],
                **marks(step),
            }
            for step in steps
        ],
        "resolution": resolution_payload(current),
        "resolutions": [resolution_payload(r) for r in resolutions],
        "comments": comment_rows(
            Comment.objects.filter(solution=solution).select_related("author").order_by("id")
        ),
        "reviews": review_action_rows(ReviewAction.objects.filter(solution=solution)),
        "history": label_history_rows(solution=solution),
    }
