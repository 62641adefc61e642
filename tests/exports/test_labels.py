"""Label resolution and the label policy, on plain records (no database)."""

from labeling.exporters.labels import (
    AnnotationLabels,
    BaseStep,
    SuggestionLabel,
    from_annotations,
    from_suggestions,
    majority,
)
from labeling.exporters.options import LabelPolicy, filters_from, label_policy_from
from labeling.exporters.policy import labeled_prefix, skip_reason, training_label
from labeling.exporters.records import SolutionRecord, StepRecord


def positive(r: int) -> bool:
    return r >= 0


def _steps(n: int) -> list[BaseStep]:
    return [BaseStep(id=100 + i, index=i, text=f"s{i}", human_written=False) for i in range(n)]


def _ann(pk: int, ratings: list, unsure: tuple = (), imported: bool = False) -> AnnotationLabels:
    a = AnnotationLabels(pk, f"u{pk}", imported, "solution", 1000, None)
    for i, r in enumerate(ratings):
        a.labels[100 + i] = (r, i in unsure)
    return a


def test_majority_ties_go_to_the_more_negative_rating():
    assert majority([1, 1, -1]) == 1
    assert majority([1, -1]) == -1
    assert majority([1, 0]) == 0
    assert majority([0, -1, 1]) == -1


def test_annotations_majority_agreement_and_soft_labels():
    steps = _steps(3)
    anns = [_ann(1, [1, 1, -1]), _ann(2, [1, -1, -1], unsure=(1,)), _ann(3, [1, 1, None])]
    r = from_annotations(steps, anns, positive=positive)
    assert [s.rating for s in r.steps] == [1, 1, -1]
    assert [s.unsure for s in r.steps] == [False, True, False]
    assert [s.soft for s in r.steps] == [1.0, 2 / 3, 0.0]
    assert r.agreement == (1 + 2 / 3 + 1) / 3
    assert r.labeler == "u1,u2,u3" and r.annotations == 3 and not r.from_import
    assert {s.source for s in r.steps} == {"majority"}


def test_single_imported_annotation_is_marked_as_the_import():
    r = from_annotations(_steps(2), [_ann(1, [1, None], imported=True)], positive=positive)
    assert r.from_import and r.steps[0].source == "imported"
    assert r.steps[1].rating is None and r.agreement == 1.0


def test_suggestions_take_the_first_source_in_priority_and_mc_fractions():
    steps = _steps(2)
    sugg = {
        100: [
            SuggestionLabel("judge", "gpt", -1, {}, None),
            SuggestionLabel("rollout", "qwen", 1, {"correct": 3, "total": 4}, None),
        ],
        101: [SuggestionLabel("judge", "gpt", -1, {}, None)],
    }
    r = from_suggestions(steps, sugg, priority=["rollout", "judge"], positive=positive)
    assert [s.rating for s in r.steps] == [1, -1]
    assert r.steps[0].soft == 0.75 and r.steps[0].source == "rollout:qwen"
    assert r.steps[1].soft == 0.0 and r.steps[1].source == "judge:gpt"
    assert r.agreement == (0.5 + 1.0) / 2
    only_judge = from_suggestions(steps, sugg, priority=["judge"], positive=positive)
    assert [s.rating for s in only_judge.steps] == [-1, -1]


def _record(ratings: list, unsure: tuple = (), human: tuple = ()) -> SolutionRecord:
    steps = [
        StepRecord(index=i, text=f"s{i}", rating=r, unsure=i in unsure, human_written=i in human)
        for i, r in enumerate(ratings)
    ]
    return SolutionRecord(1, "p", "P", "", "", "", "s", "", "", None, "", {}, steps, agreement=0.5)


def test_prefix_truncates_after_the_first_error_and_stops_at_unlabeled():
    policy, filters = LabelPolicy(), filters_from({})
    rec = _record([1, 0, -1, 1])
    assert [lab for _, lab in labeled_prefix(rec, policy, filters)] == [True, True, False]
    keep = label_policy_from({"truncate_after_first_error": False, "neutral": "negative"})
    assert [lab for _, lab in labeled_prefix(rec, keep, filters)] == [True, False, False, True]
    gap = _record([1, None, 1])
    assert len(labeled_prefix(gap, policy, filters)) == 1


def test_human_written_unrated_steps_and_unsure_modes():
    rec = _record([1, None, 1], unsure=(2,), human=(1,))
    assert training_label(rec.steps[1], LabelPolicy()) is True
    strict = label_policy_from({"human_written_positive": False})
    assert training_label(rec.steps[1], strict) is None
    truncate = filters_from({"unsure": "truncate"})
    assert len(labeled_prefix(rec, LabelPolicy(), truncate)) == 2
    assert skip_reason(rec, filters_from({"unsure": "drop"})) == "unsure"
    assert skip_reason(rec, filters_from({"unsure": "keep"})) is None
    assert skip_reason(rec, filters_from({"unsure": "keep", "min_agreement": 0.6})) == "agreement"
