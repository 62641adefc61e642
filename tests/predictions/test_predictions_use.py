"""Uploaded predictions in consensus: a source that votes like the other machine sources
(exports: tests/exports/test_prediction_exports.py)."""

import io

from autolabel.services import (
    autolabel_item_process,
    autolabel_run_chunks,
    autolabel_run_create,
    autolabel_run_refresh,
)
from labeling.models import Suggestion
from labeling.services.imports.predictions import predictions_upload
from tests.factories import SolutionFactory, SuggestionFactory
from tests.predictions.conftest import jsonl


def _upload(project, rows):
    predictions_upload(
        project=project,
        source=io.BytesIO(jsonl(rows)),
        filename="p.jsonl",
        name="my-prm",
        version="v3",
    )


def _run_inline(run):
    for chunk in autolabel_run_chunks(run=run, size=25):
        for solution_id in chunk:
            autolabel_item_process(run=run, solution_id=solution_id)
    return autolabel_run_refresh(run=run)


def test_consensus_counts_predictions_as_a_source(project):
    """required = prediction + judge: agreement on the first error gives consensus labels
    (+1 before it: a prediction rates steps, it is no refuter); disagreement gives none."""
    agree = SolutionFactory(problem__project=project, steps=3, external_id="agree")
    differ = SolutionFactory(problem__project=project, steps=3, external_id="differ")
    _upload(project, [{"id": "agree", "labels": [1, -1]}, {"id": "differ", "labels": [-1]}])
    for solution in (agree, differ):
        for step in solution.steps.order_by("index")[:2]:
            SuggestionFactory(
                step=step, source="judge", agent="critic", value=1 if step.index == 0 else -1
            )
    run = autolabel_run_create(
        project=project,
        sources=["consensus"],
        params={"consensus": {"required": ["prediction", "judge"]}},
    )
    run = _run_inline(run)
    assert (run.done, run.failed) == (2, 0), run.errors
    got = Suggestion.objects.filter(source="consensus")
    assert sorted(got.values_list("step__solution__external_id", "step__index", "value")) == [
        ("agree", 0, 1),
        ("agree", 1, -1),
    ]
    differ.refresh_from_db()
    assert differ.metadata["consensus"]["first_errors"] == {"prediction": 0, "judge": 1}
