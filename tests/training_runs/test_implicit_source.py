"""An implicit PRM trained from answer_correct alone is a `prm` suggestion source."""

import random

import pytest
from django.core.management import call_command

from autolabel.engines.prm import clear_scorer_cache
from autolabel.services import autolabel_item_process, autolabel_run_create
from labeling.models import Annotation, Suggestion
from tests.factories import ProblemFactory, ProjectFactory, SolutionFactory
from tests.training.tiny import MARKER, WORDS
from training_runs.models import PrmModel
from training_runs.outcomes import solution_outcome_rows
from training_runs.services import prm_model_register


@pytest.fixture
def outcome_project(db):
    """16 solutions with only answer_correct (wrong iff a step says MARKER), 2 unchecked."""
    project = ProjectFactory(name="Outcomes only")
    rng = random.Random(7)
    for i in range(18):
        steps, wrong = [], False
        for _ in range(2):
            words = rng.sample(WORDS, 4)
            if rng.random() < 0.3:
                words.insert(2, MARKER)
                wrong = True
            steps.append(" ".join(words) + f" {i}.")
        problem = ProblemFactory(project=project, text=f"Problem {i}: what is {i} + {i}?")
        SolutionFactory(problem=problem, steps=steps, answer_correct=None if i >= 16 else not wrong)
    return project


def test_outcome_rows_hold_the_steps_and_the_outcome(outcome_project):
    rows = list(solution_outcome_rows(project=outcome_project))
    assert len(rows) == 16  # the unchecked solutions have no outcome
    assert all(len(r["steps"]) == 2 and isinstance(r["answer_correct"], bool) for r in rows)
    assert {r["answer_correct"] for r in rows} == {True, False}


def test_an_implicit_prm_trained_on_outcomes_gives_prm_suggestions(
    outcome_project, base_model, tmp_path
):
    assert not Annotation.objects.filter(solution__project=outcome_project).exists()
    out = tmp_path / "implicit"
    call_command(
        "train_implicit",
        "--project", str(outcome_project.pk),
        "--model", str(base_model),
        "--out", str(out),
        "--name", "imp-v1",
        "--beta", "0.5",
        "--learning-rate", "3e-3",
        "--num-epochs", "2",
        "--batch-size", "8",
        "--device", "cpu",
    )  # fmt: skip
    model = PrmModel.objects.get(project=outcome_project, name="imp-v1")
    assert model.kind == "implicit" and model.base_model == str(base_model)
    assert model.metrics["train"]["loss"] < model.metrics["train_before"]["loss"]

    clear_scorer_cache()
    solution = outcome_project.solutions.order_by("id").last()
    run = autolabel_run_create(
        project=outcome_project,
        sources=["prm"],
        params={"prm": {"model_id": model.pk}},
        filter={"solution_ids": [solution.pk]},
    )
    item = autolabel_item_process(run=run, solution_id=solution.pk)
    assert item.status == "done", item.error
    rows = list(
        Suggestion.objects.filter(step__solution=solution, source="prm").order_by("step__index")
    )
    assert [r.step.index for r in rows] == [0, 1]
    assert {r.agent for r in rows} == {"prm:imp-v1"}

    from training.implicit import ImplicitPRMScorer

    steps = list(solution.steps.order_by("index").values_list("text", flat=True))
    expected = ImplicitPRMScorer(out, device="cpu").score(solution.problem.text, [steps])[0]
    assert [r.score for r in rows] == pytest.approx(expected, abs=1e-5)
    assert [r.value for r in rows] == [1 if p >= 0.5 else -1 for p in expected]


def test_registering_a_pointwise_prm_records_its_kind(train_project, trained_prm):
    model = prm_model_register(project=train_project, name="pw", path=str(trained_prm))
    assert model.kind == "pointwise"
