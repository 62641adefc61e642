"""The prm source: a trained PRM's step probabilities become suggestions."""

import pytest

from autolabel.engines.base import SolutionInput
from autolabel.engines.prm import PrmEngine, clear_scorer_cache, scorer_for, summary
from autolabel.services import autolabel_item_process, autolabel_run_create
from labeling.errors import ValidationFailed
from labeling.models import Suggestion
from training_runs.models import PrmModel

STEPS = ("add the two numbers 3.", "then oops multiply by 4.", "check result so we 5.")


def test_suggestions_follow_the_scorers_probabilities(trained_prm):
    from training.score import PRMScorer

    expected = PRMScorer(trained_prm).score("Problem 1: what is 1 + 1?", [list(STEPS)])[0]
    threshold = sorted(expected)[1]  # one step below, two at or above
    solution = SolutionInput(problem="Problem 1: what is 1 + 1?", gold_answer="2", steps=STEPS)
    result = PrmEngine()(solution, {"path": str(trained_prm), "threshold": threshold})
    assert (result.source, result.agent) == ("prm", f"prm:{trained_prm}")
    assert [s.step_index for s in result.suggestions] == [0, 1, 2]
    assert [s.score for s in result.suggestions] == pytest.approx(expected, abs=1e-5)
    assert [s.value for s in result.suggestions] == [1 if p >= threshold else -1 for p in expected]
    assert sorted(s.value for s in result.suggestions) == [-1, 1, 1]
    evidence = result.suggestions[0].evidence
    assert evidence["probability"] == pytest.approx(expected[0], abs=1e-5)
    assert (evidence["model"], evidence["threshold"]) == (str(trained_prm), threshold)
    assert result.solution_evidence["min_probability"] == pytest.approx(min(expected), abs=1e-5)


def test_the_scorer_is_loaded_once_per_path(trained_prm):
    clear_scorer_cache()
    assert scorer_for(str(trained_prm)) is scorer_for(str(trained_prm))


@pytest.mark.parametrize(
    "probs, answer_correct, first_error, convincing",
    [
        ([0.9, 0.8], False, None, True),  # rated correct throughout, answer wrong
        ([0.9, 0.8], True, None, False),
        ([0.9, 0.3], False, 1, False),  # the PRM found the error
        ([0.9, 0.8], None, None, None),  # answer not checked
    ],
)
def test_summary(probs, answer_correct, first_error, convincing):
    found = summary(probs, threshold=0.5, answer_correct=answer_correct, model="m")
    assert found["first_error"] == first_error
    assert found["convincing_wrong"] is convincing
    assert found["min_probability"] == min(probs)
    assert found["uncertainty"] == pytest.approx(abs(min(probs) - 0.5))


@pytest.mark.parametrize(
    "params, message",
    [
        ({}, "need a path"),
        ({"path": "/nonexistent"}, "not a saved model"),
        ({"model_id": 999}, "no model 999"),
        ({"model_id": "1"}, "no model '1'"),
        ({"threshold": 1.5}, "threshold"),
        ({"batch_size": 0}, "batch_size"),
        ({"temperature": 1}, "unknown prm params"),
    ],
)
def test_run_creation_checks_prm_params(train_project, trained_prm, params, message):
    if "threshold" in params or "batch_size" in params or "temperature" in params:
        params = {"path": str(trained_prm), **params}
    with pytest.raises(ValidationFailed, match=message):
        autolabel_run_create(project=train_project, sources=["prm"], params={"prm": params})


def test_a_registered_model_is_resolved_to_its_path(train_project, trained_prm):
    model = PrmModel.objects.create(project=train_project, name="v1", path=str(trained_prm))
    unlabeled = list(
        train_project.solutions.filter(annotations__isnull=True).values_list("pk", flat=True)
    )
    run = autolabel_run_create(
        project=train_project,
        sources=["prm"],
        params={"prm": {"model_id": model.pk}},
        filter={"solution_ids": unlabeled},
    )
    assert run.params["prm"] == {"model_id": model.pk, "path": str(trained_prm), "model": "v1"}
    assert run.total == 6
    solution_id = run.items.order_by("solution_id").first().solution_id
    item = autolabel_item_process(run=run, solution_id=solution_id)
    assert item.status == "done", item.error
    rows = Suggestion.objects.filter(step__solution_id=solution_id, source="prm")
    assert rows.count() == item.suggestions > 0
    assert {r.agent for r in rows} == {"prm:v1"}
    assert all(r.value in (-1, 1) and 0 <= r.score <= 1 for r in rows)
    from labeling.models import Solution

    metadata = Solution.objects.get(pk=solution_id).metadata["prm"]
    assert metadata["model"] == "v1"
    assert metadata["min_probability"] == pytest.approx(min(r.score for r in rows), abs=1e-5)


def test_another_projects_model_is_refused(train_project, trained_prm):
    from tests.factories import ProjectFactory

    model = PrmModel.objects.create(project=ProjectFactory(), name="v1", path=str(trained_prm))
    with pytest.raises(ValidationFailed, match="no model"):
        autolabel_run_create(
            project=train_project, sources=["prm"], params={"prm": {"model_id": model.pk}}
        )


def test_prefetch_scores_a_chunk_in_batches_with_the_same_probabilities(trained_prm, monkeypatch):
    """Padded batches must give each solution what scoring it alone gives; __call__ then uses
    the prefetched probabilities instead of a forward pass of its own."""
    clear_scorer_cache()
    engine = PrmEngine()
    params = {"path": str(trained_prm), "batch_size": 3}
    solutions = [
        SolutionInput(
            problem=f"Problem {i}: what is {i} + {i}?", gold_answer="", steps=STEPS[: 1 + i % 3]
        )
        for i in range(7)
    ]
    alone = [[s.score for s in engine(sol, params).suggestions] for sol in solutions]
    scorer = scorer_for(str(trained_prm))
    batches = []
    real = scorer.score_many
    monkeypatch.setattr(
        scorer,
        "score_many",
        lambda items, batch_size=None, deadline=None: (
            batches.append(len(items)) or real(items, batch_size, deadline)
        ),
    )
    assert engine.prefetch(solutions, params) == 7
    assert batches == [3, 3, 1]  # one forward batch each, on one item's budget (prm_item_s)
    monkeypatch.setattr(scorer, "score_many", lambda *a, **k: pytest.fail("scored again"))
    batched = [[s.score for s in engine(sol, params).suggestions] for sol in solutions]
    for got, expected in zip(batched, alone, strict=True):
        assert got == pytest.approx(expected, abs=1e-5)


def test_a_chunk_is_prefetched_before_its_items(train_project, trained_prm, monkeypatch):
    from autolabel.engines import prm
    from autolabel.run_chunks import autolabel_chunk_process

    ids = list(train_project.solutions.order_by("id").values_list("pk", flat=True)[:5])
    run = autolabel_run_create(
        project=train_project,
        sources=["prm"],
        params={"prm": {"path": str(trained_prm)}},
        filter={"solution_ids": ids},
    )
    seen = []
    monkeypatch.setattr(prm.PrmEngine, "prefetch", lambda self, sols, params: seen.append(sols))
    autolabel_item_process(run=run, solution_id=ids[0])
    assert seen == []  # a chunk of one is scored as it is processed
    autolabel_chunk_process(run=run, solution_ids=ids)
    (inputs,) = seen
    assert len(inputs) == 4  # the processed one is no longer pending
    assert all(isinstance(s, SolutionInput) and s.steps for s in inputs)
