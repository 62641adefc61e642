"""label_source=final (the default): per step a review's resolution, else the annotators'
majority (ties left out and counted), else a machine label only when asked, else nothing;
the counts of where labels came from reach the export's stats and its dataset card."""

from datetime import UTC, datetime

import pytest
from django.db import transaction

from labeling.errors import ValidationFailed
from labeling.exporters.final import FinalTally, from_final
from labeling.exporters.labels import AnnotationLabels, BaseStep, ResolutionLabels
from labeling.exporters.options import filters_from
from labeling.models import Provenance, Solution
from labeling.services.review.actions import review_adjudicate
from labeling.services.review.resolutions import resolution_create
from tests.exports.conftest import read_rows
from tests.factories import SolutionFactory, SuggestionFactory, UserFactory
from tests.review.test_review_queue import submitted

pytestmark = pytest.mark.django_db

NONE = {"mode": "none"}
KEEP_ALL = {"truncate_after_first_error": False, "label_sources": True}


def _positive(rating: int) -> bool:
    return rating >= 0


def _steps(n: int) -> list[BaseStep]:
    return [BaseStep(i + 1, i, f"s{i}", False) for i in range(n)]


def _annotation(pk: int, name: str, labels: dict[int, int | None]) -> AnnotationLabels:
    return AnnotationLabels(
        id=pk,
        name=name,
        imported=False,
        finish_reason="solution",
        time_spent_ms=10,
        submitted_at=None,
        labels={step: (rating, False) for step, rating in labels.items()},
    )


# Pure rules ------------------------------------------------------------------------------


def test_resolution_wins_over_the_annotators_step_by_step():
    tally = FinalTally()
    resolution = ResolutionLabels("reviewer", "rev", None, 2, labels={1: 1, 2: -1, 3: None})
    annotations = [_annotation(1, "a", {1: -1, 2: 1, 3: 1}), _annotation(2, "b", {3: 1})]
    out = from_final(_steps(3), resolution, annotations, positive=_positive, tally=tally)
    assert [s.rating for s in out.steps] == [1, -1, 1]  # the unresolved step: annotators
    assert [s.source for s in out.steps] == ["reviewed:reviewer", "reviewed:reviewer", "majority"]
    assert tally.steps == {"review": 2, "agreement": 1}
    assert tally.solutions == {"review": 1}
    assert out.labeler == "rev,a,b"


def test_majority_tie_left_out_and_counted():
    tally = FinalTally()
    annotations = [
        _annotation(1, "a", {1: 1, 2: 1, 3: -1}),
        _annotation(2, "b", {1: 1, 2: -1, 3: -1}),
        _annotation(3, "c", {1: -1, 2: None, 3: 1}),
    ]
    out = from_final(_steps(3), None, annotations, positive=_positive, tally=tally)
    # step 1: 2 of 3 say +1; step 2: one +1 and one -1 (c left it unrated) is a tie;
    # step 3: 2 of 3 say -1.
    assert [s.rating for s in out.steps] == [1, None, -1]
    assert [s.source for s in out.steps] == ["majority", "", "majority"]
    assert out.steps[0].soft == pytest.approx(2 / 3)
    assert tally.steps == {"agreement": 2, "tie": 1}
    assert out.agreement == pytest.approx((2 / 3 + 1 / 2 + 2 / 3) / 3)


def test_an_all_tied_solution_counts_as_tie_and_an_unlabeled_one_as_no_label():
    tally = FinalTally()
    tied = [_annotation(1, "a", {1: 1}), _annotation(2, "b", {1: -1})]
    from_final(_steps(1), None, tied, positive=_positive, tally=tally)
    from_final(_steps(2), None, [], positive=_positive, tally=tally)
    assert tally.solutions == {"tie": 1, "no_label": 1}
    assert tally.steps == {"tie": 1, "no_label": 2}


def test_single_annotator_and_machine_only_when_given():
    from labeling.exporters.labels import SuggestionLabel

    suggestions = {2: [SuggestionLabel("symbolic", "sympy", -1, {}, None)]}
    single = [_annotation(1, "a", {1: 1})]
    tally = FinalTally()
    out = from_final(_steps(2), None, single, positive=_positive, tally=tally)
    assert [s.rating for s in out.steps] == [1, None]
    assert tally.steps == {"single": 1, "no_label": 1} and tally.solutions == {"single": 1}
    tally = FinalTally()
    out = from_final(
        _steps(2),
        None,
        single,
        positive=_positive,
        tally=tally,
        suggestions=suggestions,
        priority=("symbolic",),
    )
    assert [s.rating for s in out.steps] == [1, -1]
    assert out.steps[1].source == "symbolic:sympy"
    assert tally.steps == {"single": 1, "machine": 1}
    assert tally.solutions == {"single": 1}  # the most authoritative origin of its steps


def _fields(resolved) -> tuple:
    steps = [
        (s.index, s.text, s.rating, s.unsure, s.soft, s.source, s.uses, s.inherited)
        for s in resolved.steps
    ]
    rest = (resolved.agreement, resolved.labeler, resolved.labeled_at, resolved.time_spent_ms)
    return steps, (*rest, resolved.finish_reason, resolved.from_import, resolved.annotations)


@pytest.mark.parametrize("name", ["a", "", None])
@pytest.mark.parametrize("imported", [True, False])
@pytest.mark.parametrize(
    "labels",
    [
        {1: (1, False), 2: (-1, False), 3: (0, True)},
        {1: (None, True), 3: (1, False)},  # unrated but unsure; a step with no mark
        {},  # nothing rated: no_label
        {2: (None, False)},
    ],
)
def test_single_annotation_labelled_in_place_as_the_general_rule(name, imported, labels):
    """The default export's common case (one annotation, no review, no machine labels):
    `reuse=True` sets the labels on the read steps themselves, no object a step, with the
    same steps, record fields and counts as the general rule."""
    at = datetime(2026, 1, 2, tzinfo=UTC)
    single = AnnotationLabels(
        id=1,
        name=name,
        imported=imported,
        finish_reason="solution",
        time_spent_ms=7,
        submitted_at=at,
        labels=dict(labels),
    )
    general, fast = FinalTally(), FinalTally()
    expected = from_final(_steps(3), None, [single], positive=_positive, tally=general)
    steps = _steps(3)
    out = from_final(steps, None, [single], positive=_positive, tally=fast, reuse=True)
    assert all(a is b for a, b in zip(out.steps, steps, strict=True))  # labelled in place
    assert _fields(out) == _fields(expected)
    assert fast.as_dict() == general.as_dict()
    assert +fast.steps == +general.steps and +fast.solutions == +general.solutions


def test_reuse_leaves_the_general_rule_where_it_must():
    """Two annotations, a resolution, or marked dependencies: `reuse` changes nothing."""
    marked = _annotation(1, "a", {1: 1, 2: -1})
    marked.uses = {2: [0]}
    cases = [
        ([_annotation(1, "a", {1: 1}), _annotation(2, "b", {1: -1})], None),
        ([_annotation(1, "a", {1: 1})], ResolutionLabels("reviewer", "r", None, 1, labels={2: 1})),
        ([marked], None),
    ]
    for annotations, resolution in cases:
        general, fast = FinalTally(), FinalTally()
        expected = from_final(_steps(2), resolution, annotations, positive=_positive, tally=general)
        steps = _steps(2)
        out = from_final(steps, resolution, annotations, positive=_positive, tally=fast, reuse=True)
        assert _fields(out) == _fields(expected)
        assert fast.as_dict() == general.as_dict()


def test_machine_labels_option_is_checked():
    assert filters_from({}).machine_labels is False
    with pytest.raises(ValidationFailed) as exc:
        filters_from({"label_source": "annotations", "machine_labels": True})
    assert exc.value.details["field"] == "filters.machine_labels"
    with pytest.raises(ValidationFailed) as exc:
        filters_from({"min_score": 0.5})  # final without machine labels: nothing to score
    assert exc.value.details["field"] == "filters.min_score"
    assert filters_from({"machine_labels": True, "min_score": 0.5}).min_score == 0.5


# Exports ---------------------------------------------------------------------------------


def _world(project):
    ann1, ann2, ann3, reviewer = (UserFactory(username=n) for n in ("ann1", "ann2", "ann3", "rev"))
    reviewed = SolutionFactory(problem__project=project, steps=["a", "b", "c"])
    majority = SolutionFactory(problem__project=project, steps=["d", "e", "f"])
    tied = SolutionFactory(problem__project=project, steps=["g", "h"])
    single = SolutionFactory(problem__project=project, steps=["i", "j"])
    machine = SolutionFactory(problem__project=project, steps=["k", "l"])
    SolutionFactory(problem__project=project, steps=["m"])  # nobody labeled it
    submitted(reviewed, ann1, [1, 1, 1])
    submitted(reviewed, ann2, [1, 1, 1])
    steps = list(reviewed.steps.order_by("index"))
    review_adjudicate(
        solution=reviewed,
        reviewer=reviewer,
        labels=[{"step_id": s.pk, "rating": r} for s, r in zip(steps, [1, -1, -1], strict=True)],
    )
    submitted(majority, ann1, [1, 1, -1])
    submitted(majority, ann2, [1, 1, 1])
    submitted(majority, ann3, [1, -1, -1])
    submitted(tied, ann1, [1, 1])
    submitted(tied, ann2, [1, -1])
    submitted(single, ann1, [1, -1])
    for step, value in zip(machine.steps.order_by("index"), [1, -1], strict=True):
        SuggestionFactory(step=step, source="symbolic", agent="sympy", value=value)
    return reviewed, machine


def test_default_export_is_final_labels_with_counts(project, build):
    _world(project)
    export = build("trl", label_policy=KEEP_ALL, split_policy=NONE)
    assert export.filters["label_source"] == "final"
    rows = {tuple(r["completions"]): r for r in read_rows(export)}
    # The reviewer's labels, not the annotators' all-correct ones.
    assert rows[("a", "b", "c")]["labels"] == [True, False, False]
    assert rows[("a", "b", "c")]["label_sources"] == ["reviewed:reviewer"] * 3
    assert rows[("d", "e", "f")]["labels"] == [True, True, False]  # 3/3, 2/3, 2/3
    assert rows[("g",)]["labels"] == [True]  # the tie on "h" ends the row
    assert rows[("i", "j")]["label_sources"] == ["human", "human"]
    assert set(rows) == {("a", "b", "c"), ("d", "e", "f"), ("g",), ("i", "j")}  # no machine
    final = export.stats["final_labels"]
    assert final["solutions"] == {
        "review": 1,
        "agreement": 2,  # the majority one, and the tied one's agreed first step
        "single": 1,
        "machine": 0,
        "tie": 0,
        "no_label": 2,  # the suggestion-only one and the unlabeled one
    }
    assert final["steps"] == {
        "review": 3,
        "agreement": 4,
        "single": 2,
        "machine": 0,
        "tie": 1,
        "no_label": 0,
    }
    assert "### Final labels: where they came from" in export.card
    assert "| review: a reviewer's resolution | 1 | 3 |" in export.card
    assert "| tie: left out: the annotators tied | 0 | 1 |" in export.card


def test_machine_labels_only_when_asked(project, build):
    _, machine = _world(project)
    export = build(
        "trl", filters={"machine_labels": True}, label_policy=KEEP_ALL, split_policy=NONE
    )
    rows = {tuple(r["completions"]): r for r in read_rows(export)}
    assert rows[("k", "l")]["labels"] == [True, False]
    assert rows[("k", "l")]["label_sources"] == ["symbolic:sympy"] * 2
    assert export.stats["final_labels"]["solutions"]["machine"] == 1
    assert export.stats["final_labels"]["steps"]["machine"] == 2
    assert export.stats["final_labels"]["solutions"]["no_label"] == 1


def test_a_machine_agreed_resolution_needs_machine_labels(project, build):
    solution = SolutionFactory(problem__project=project, steps=["p", "q"])
    steps = list(solution.steps.order_by("index"))
    with transaction.atomic():
        Solution.objects.select_for_update().get(pk=solution.pk)
        resolution_create(
            solution=solution,
            ratings={steps[0].pk: 1, steps[1].pk: -1},
            provenance=Provenance.AUTO_CONSENSUS,
        )
    default = build("trl", split_policy=NONE)
    assert default.row_count == 0
    assert default.stats["final_labels"]["solutions"]["no_label"] == 1
    asked = build("trl", filters={"machine_labels": True}, split_policy=NONE)
    assert [r["labels"] for r in read_rows(asked)] == [[True, False]]
    assert asked.stats["final_labels"]["steps"]["machine"] == 2


def test_other_sources_keep_their_behaviour(project, build):
    _world(project)
    annotations = build(
        "trl", filters={"label_source": "annotations"}, label_policy=KEEP_ALL, split_policy=NONE
    )
    rows = {tuple(r["completions"]): r for r in read_rows(annotations)}
    assert rows[("a", "b", "c")]["labels"] == [True, True, True]  # what annotators submitted
    assert "final_labels" not in annotations.stats
