"""The default TRL export's steps as columns: no object a step (the common case, pure).

Where a solution's labels are one annotation's (label_source human, imported or annotations
with combine=majority; final with no review of the solution and no machine labels) and the
format writes only the steps' texts and training labels (TRL without soft labels, label
sources, domain, dependencies, thinking, evidence or images), its record carries
`StepColumns`: the labeled prefix's texts and labels (policy.labeled_steps' rule), each
written step's rating and the label's source for the card's counts, and whether any step
is unsure (filters.unsure=drop). The step rows are read as the chunk's query gave them; no
BaseStep and no StepRecord is built. Any other solution of the same export (two
annotations, a review) goes the general way (labels.py, final.py), so the rows, the counts
and the file are the same either way (tests/exports/test_columnar.py).
"""

from typing import Any

from .final import NO_LABEL, SINGLE, FinalTally
from .labels import AnnotationLabels, Resolved
from .options import Combine, DependencyPolicy, ExportOptions, LabelSource, Unsure
from .policy import positive_rating
from .records import StepColumns

_UNLABELED = (None, False)


class ColumnPlan:
    """What the columns of one export's records follow: its label policy and filters."""

    def __init__(self, options: ExportOptions) -> None:
        self.policy = policy = options.label_policy
        self.final = options.filters.label_source == LabelSource.FINAL
        self.truncate_unsure = options.filters.unsure == Unsure.TRUNCATE
        self.first_error = policy.truncate_after_first_error
        self.human_written_positive = policy.human_written_positive
        self.rated = {rating: positive_rating(rating, policy) for rating in (-1, 0, 1)}

    def resolve(
        self, rows: list[tuple], single: AnnotationLabels, tally: FinalTally | None
    ) -> tuple[Resolved, StepColumns]:
        """One solution's record fields and columns from its step rows (in index order) and
        its one annotation: what from_annotations(reuse=True) or from_final, then
        policy.labeled_steps, give for its steps."""
        tag = "imported" if single.imported else "human"
        get, rated_of = single.labels.get, self.rated
        truncate_unsure, first_error = self.truncate_unsure, self.first_error
        texts: list[str] = []
        labels: list[bool] = []
        ratings: list[int | None] = []
        rated = 0
        any_unsure = False
        writing = True
        for row in rows:
            rating, unsure = get(row[1], _UNLABELED)
            if rating is not None:
                rated += 1
            if unsure:
                any_unsure = True
            if not writing:
                continue
            if unsure and truncate_unsure:
                writing = False
                continue
            if rating is None:
                # policy.training_label: a step its labeler wrote (PRM800K), when asked
                if not (self.human_written_positive and row[4] == "human"):
                    writing = False
                    continue
                label = True
            elif (label := rated_of.get(rating)) is None:
                label = positive_rating(rating, self.policy)
            texts.append(row[3])
            labels.append(label)
            ratings.append(rating)
            if not label and first_error:
                writing = False
        columns = StepColumns(texts, labels, ratings, tag, any_unsure)
        if not self.final:  # labels._from_one
            resolved = Resolved(
                steps=[],
                agreement=1.0 if rated else None,
                labeler=single.name,
                labeled_at=single.submitted_at or None,
                time_spent_ms=single.time_spent_ms,
                finish_reason=single.finish_reason,
                from_import=bool(single.imported),
                annotations=1,
            )
            return resolved, columns
        assert tally is not None
        if rated:  # final._from_single
            tally.steps[SINGLE] += rated
            tally.solutions[SINGLE] += 1
        else:
            tally.solutions[NO_LABEL] += 1
        if unrated := len(rows) - rated:
            tally.steps[NO_LABEL] += unrated
        resolved = Resolved(
            steps=[],
            agreement=None,
            labeler=(single.name or "") if rated else "",
            labeled_at=single.submitted_at if rated and single.submitted_at else None,
            time_spent_ms=single.time_spent_ms,
            finish_reason=single.finish_reason,
            from_import=bool(rated) and bool(single.imported),
            annotations=1,
        )
        return resolved, columns


def column_plan(fmt: Any, options: ExportOptions) -> ColumnPlan | None:
    """The plan when the format takes columns (`Format.takes_columns`) and the options
    resolve labels from one annotation at a time; else None (the general way)."""
    filters, policy = options.filters, options.label_policy
    if not getattr(fmt, "takes_columns", False) or not fmt.takes_columns():
        return None
    if policy.dependency_policy != DependencyPolicy.NONE:
        return None
    source = filters.label_source
    if source.uses_annotations and policy.combine != Combine.PER_ANNOTATION:
        return ColumnPlan(options)
    if source == LabelSource.FINAL and not filters.machine_labels:
        return ColumnPlan(options)
    return None
