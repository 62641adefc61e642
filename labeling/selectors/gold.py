"""Reads for gold management: the project's gold questions and how annotators answer them."""

from collections import defaultdict
from collections.abc import Sequence

from django.db.models import Count, F, Q, QuerySet

from labeling.metrics.queries import _first_error, _gold_first_error
from labeling.metrics.selection import NO_ERROR, _rater, submitted_annotations, submitted_labels
from labeling.models import GoldLabel, Project, Solution


def gold_solution_list(*, project: Project) -> QuerySet[Solution]:
    """The project's gold solutions, oldest first (what gold_list describes, a page at a time)."""
    return (
        Solution.objects.filter(project=project, is_gold=True)
        .select_related("problem")
        .only("id", "generator", "problem__text", "problem__source")
        .order_by("id")
    )


def gold_list(*, project: Project, solutions: Sequence[Solution] | None = None) -> list[dict]:
    """Each gold solution (of `solutions`, a page of gold_solution_list; default all) with its
    gold ratings (step order), gold first error, and accuracy of every annotator who answered
    it: rated steps matching gold, and whether their first error is gold's. Four grouped
    queries whatever the number of answers."""
    solutions = list(gold_solution_list(project=project) if solutions is None else solutions)
    ids = [s.pk for s in solutions]
    ratings: dict[int, list[int | None]] = defaultdict(list)
    for row in (
        GoldLabel.objects.filter(step__solution_id__in=ids)
        .order_by("step__solution_id", "step__index")
        .values("step__solution_id", "rating")
    ):
        ratings[row["step__solution_id"]].append(row["rating"])
    steps = (
        submitted_labels(project)
        .filter(step__solution_id__in=ids, step__gold__rating__isnull=False)
        .annotate(rater=_rater("annotation__"))
        .values("annotation__solution_id", "rater")
        .annotate(n=Count("id"), agree=Count("id", filter=Q(rating=F("step__gold__rating"))))
    )
    answers = (
        submitted_annotations(project)
        .filter(solution_id__in=ids)
        .annotate(rater=_rater(), fe=_first_error(), gold_fe=_gold_first_error())
        .values("solution_id", "rater", "fe", "gold_fe")
    )
    per: dict[int, dict[str, dict]] = defaultdict(dict)
    for row in answers:
        per[row["solution_id"]][row["rater"]] = {
            "annotator": row["rater"],
            "steps": 0,
            "step_accuracy": None,
            "first_error": None if row["fe"] == NO_ERROR else row["fe"],
            "first_error_correct": row["fe"] == row["gold_fe"],
        }
    for row in steps:
        cell = per[row["annotation__solution_id"]].get(row["rater"])
        if cell is not None:
            cell.update(steps=row["n"], step_accuracy=row["agree"] / row["n"])
    out = []
    for solution in solutions:
        gold = ratings.get(solution.pk, [])
        rows = sorted(per.get(solution.pk, {}).values(), key=lambda r: r["annotator"])
        n_steps = sum(r["steps"] for r in rows)
        agree = sum(r["steps"] * r["step_accuracy"] for r in rows if r["step_accuracy"] is not None)
        out.append(
            {
                "solution_id": solution.pk,
                "problem_text": solution.problem.text[:300],
                "problem_source": solution.problem.source,
                "generator": solution.generator,
                "ratings": gold,
                "first_error": next((i for i, r in enumerate(gold) if r == -1), None),
                "answers": len(rows),
                "step_accuracy": round(agree) / n_steps if n_steps else None,
                "first_error_accuracy": (
                    sum(r["first_error_correct"] for r in rows) / len(rows) if rows else None
                ),
                "annotators": rows,
            }
        )
    return out
