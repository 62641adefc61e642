"""Splitting and merging steps while labeling (labeling.services.labeling.resegment): labels, uses,
suggestions, history and versions stay consistent; shared solutions are refused."""

import pytest

from labeling.errors import Conflict, NotAllowed, ValidationFailed
from labeling.models import Annotation, LabelHistory, Step, StepAlternative, StepLabel, Suggestion
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.labeling.annotations import annotation_save_draft, annotation_submit
from labeling.services.labeling.resegment import step_merge, step_split
from labeling.services.queue.claim import task_claim_next
from tests.exports.conftest import read_rows
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db

TEXTS = ["Let $x = 2$. Then $x^2 = 4$.", "So $x^3 = 8$.", "Hence $x^3 - x^2 = 4$."]


@pytest.fixture
def draft():
    project = ProjectFactory(allow_resegment=True, overlap=2)
    user = UserFactory()
    MembershipFactory(project=project, user=user)
    SolutionFactory(problem__project=project, steps=list(TEXTS))
    return task_claim_next(project=project, user=user).annotation, user


def _steps(annotation):
    return list(Step.objects.filter(solution_id=annotation.solution_id).order_by("index"))


def _save(annotation, user, ratings, uses=None):
    uses = uses or {}
    labels = [
        {"step_id": s.pk, "rating": r, **({"uses": uses[i]} if i in uses else {})}
        for i, (s, r) in enumerate(zip(_steps(annotation), ratings, strict=True))
    ]
    return annotation_save_draft(
        annotation=annotation, user=user, version=annotation.version, labels=labels
    )


def test_split_makes_two_unrated_halves_and_renumbers(draft):
    annotation, user = draft
    annotation = _save(annotation, user, [1, -1, 1], uses={2: [1]})
    first, second, third = _steps(annotation)
    Suggestion.objects.create(step=first, source="symbolic", agent="sympy", value=1)
    Suggestion.objects.create(step=second, source="symbolic", agent="sympy", value=1)
    Step.objects.filter(pk=third.pk).update(uses=[0, 1])

    cut, read = TEXTS[0].index(" Then"), annotation.version
    done = step_split(annotation=annotation, user=user, version=read, step_id=first.pk, offset=cut)

    steps = _steps(annotation)
    assert [s.text for s in steps] == ["Let $x = 2$.", "Then $x^2 = 4$.", *TEXTS[1:]]
    assert [s.index for s in steps] == [0, 1, 2, 3]
    assert steps[0].pk == first.pk and steps[2].pk == second.pk
    assert Annotation.objects.get(pk=done.pk).version == read + 1
    labels = {label.step_id: label for label in StepLabel.objects.filter(annotation=annotation)}
    assert first.pk not in labels  # the halves start unrated
    assert labels[second.pk].rating == -1 and labels[third.pk].rating == 1
    assert labels[third.pk].uses == [2]  # a use of old step 1 is a use of new step 2
    assert Step.objects.get(pk=third.pk).uses == [0, 1, 2]  # step 0 split: both halves
    assert not Suggestion.objects.filter(step=first).exists()
    assert Suggestion.objects.filter(step=second).exists()
    row = LabelHistory.objects.filter(action="split").get()
    assert row.step_id == first.pk and row.before["rating"] == 1 and row.after is None


def test_merge_keeps_the_worse_rating_and_moves_history(draft):
    annotation, user = draft
    annotation = _save(annotation, user, [1, -1, 0], uses={2: [1]})
    first, second, third = _steps(annotation)
    Suggestion.objects.create(step=second, source="symbolic", agent="sympy", value=1)
    history_of_second = LabelHistory.objects.filter(step=second).count()
    assert history_of_second == 1

    step_merge(annotation=annotation, user=user, version=annotation.version, step_id=first.pk)

    steps = _steps(annotation)
    assert [s.text for s in steps] == [f"{TEXTS[0]}\n{TEXTS[1]}", TEXTS[2]]
    assert [s.pk for s in steps] == [first.pk, third.pk] and [s.index for s in steps] == [0, 1]
    labels = {label.step_id: label for label in StepLabel.objects.filter(annotation=annotation)}
    assert labels[first.pk].rating == -1  # correct + wrong: wrong
    assert labels[third.pk].uses == [0]
    assert not Suggestion.objects.filter(step__solution_id=annotation.solution_id).exists()
    merges = LabelHistory.objects.filter(action="merge", step=first)
    assert sorted(row.before["rating"] for row in merges) == [-1, 1]
    # The merged-away step's history is on the step it joined, not deleted.
    assert LabelHistory.objects.filter(step=first, action="draft").count() == 2


@pytest.mark.parametrize(
    ("ratings", "merged"), [([1, 0], 0), ([1, None], None), ([None, -1], -1), ([1, 1], 1)]
)
def test_merge_rating_rule(draft, ratings, merged):
    annotation, user = draft
    annotation = _save(annotation, user, [*ratings, 1])
    first = _steps(annotation)[0]
    step_merge(annotation=annotation, user=user, version=annotation.version, step_id=first.pk)
    assert StepLabel.objects.get(annotation=annotation, step=first).rating == merged


def test_stale_version_is_a_conflict_and_changes_nothing(draft):
    annotation, user = draft
    first = _steps(annotation)[0]
    with pytest.raises(Conflict):
        step_merge(
            annotation=annotation, user=user, version=annotation.version + 5, step_id=first.pk
        )
    assert [s.text for s in _steps(annotation)] == TEXTS


def test_a_stale_draft_after_a_split_is_refused(draft):
    annotation, user = draft
    old_steps = _steps(annotation)
    old_version = annotation.version
    step_split(
        annotation=annotation, user=user, version=old_version, step_id=old_steps[0].pk, offset=5
    )
    with pytest.raises(Conflict):
        annotation_save_draft(
            annotation=annotation,
            user=user,
            version=old_version,
            labels=[{"step_id": s.pk, "rating": 1} for s in old_steps],
        )


@pytest.mark.parametrize("offset", [0, len(TEXTS[0]), 10_000, 3])
def test_split_offsets_out_of_the_text_or_leaving_an_empty_half(draft, offset):
    annotation, user = draft
    first = _steps(annotation)[0]
    text = " " * 3 + TEXTS[0]
    Step.objects.filter(pk=first.pk).update(text=text)
    if offset == len(TEXTS[0]):
        offset = len(text)
    with pytest.raises(ValidationFailed) as error:
        step_split(
            annotation=annotation,
            user=user,
            version=annotation.version,
            step_id=first.pk,
            offset=offset,
        )
    assert error.value.details["field"] == "offset"
    assert Annotation.objects.get(pk=annotation.pk).version == annotation.version


def test_merge_of_the_last_step_or_a_foreign_step_is_refused(draft):
    annotation, user = draft
    last = _steps(annotation)[-1]
    with pytest.raises(ValidationFailed, match="last step"):
        step_merge(annotation=annotation, user=user, version=annotation.version, step_id=last.pk)
    foreign = SolutionFactory().steps.first()
    with pytest.raises(ValidationFailed, match="not a step of this solution"):
        step_merge(annotation=annotation, user=user, version=annotation.version, step_id=foreign.pk)


def test_refused_when_the_project_does_not_allow_it(draft):
    annotation, user = draft
    annotation.solution.project.__class__.objects.update(allow_resegment=False)
    annotation = Annotation.objects.get(pk=annotation.pk)
    with pytest.raises(NotAllowed):
        step_merge(annotation=annotation, user=user, version=1, step_id=_steps(annotation)[0].pk)


def test_refused_when_another_annotator_claimed_or_submitted(draft):
    annotation, user = draft
    other = UserFactory()
    MembershipFactory(project=annotation.solution.project, user=other)
    theirs = task_claim_next(project=annotation.solution.project, user=other).annotation
    assert theirs.solution_id == annotation.solution_id  # overlap 2: the same solution
    annotation_submit(
        annotation=theirs,
        user=other,
        version=theirs.version,
        labels=[{"step_id": s.pk, "rating": 1} for s in _steps(theirs)],
    )
    with pytest.raises(Conflict, match="Another annotation"):
        step_split(
            annotation=annotation,
            user=user,
            version=annotation.version,
            step_id=_steps(annotation)[0].pk,
            offset=5,
        )
    assert [s.text for s in _steps(annotation)] == TEXTS


def test_refused_on_a_step_with_alternatives(draft):
    annotation, user = draft
    first = _steps(annotation)[0]
    StepAlternative.objects.create(step=first, position=0, text="Other", rating=1)
    with pytest.raises(Conflict, match="alternative"):
        step_split(
            annotation=annotation, user=user, version=annotation.version, step_id=first.pk, offset=5
        )


def test_export_reads_the_new_segmentation(draft):
    annotation, user = draft
    first = _steps(annotation)[0]
    annotation = step_split(
        annotation=annotation,
        user=user,
        version=annotation.version,
        step_id=first.pk,
        offset=TEXTS[0].index(" Then"),
    )
    steps = _steps(annotation)
    annotation = step_merge(
        annotation=annotation, user=user, version=annotation.version, step_id=steps[2].pk
    )
    steps = _steps(annotation)
    annotation_submit(
        annotation=annotation,
        user=user,
        version=annotation.version,
        labels=[{"step_id": s.pk, "rating": r} for s, r in zip(steps, [1, 1, -1], strict=True)],
    )
    export = export_create(project=annotation.solution.project, created_by=None, format="trl")
    export = export_build(export=export)
    assert export.status == "done", export.error
    (record,) = read_rows(export)
    assert record["labels"] == [True, True, False]
    assert record["completions"] == [
        "Let $x = 2$.",
        "Then $x^2 = 4$.",
        f"{TEXTS[1]}\n{TEXTS[2]}",
    ]
