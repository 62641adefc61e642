"""Exports with uploaded predictions (source "prediction") as the machine labels."""

import io

from labeling.services.imports.predictions import predictions_upload
from tests.exports.conftest import read_rows
from tests.factories import SolutionFactory, SuggestionFactory


def test_export_with_prediction_labels(project, build):
    solution = SolutionFactory(problem__project=project, steps=["a", "b", "c"], external_id="x")
    SuggestionFactory(step=solution.steps.get(index=0), source="rollout", agent="mc", value=1)
    body = b'{"id": "x", "name": "my-prm", "version": "v3", "labels": [1, 1, -1]}\n'
    predictions_upload(project=project, source=io.BytesIO(body), filename="p.jsonl")
    export = build(
        "trl",
        filters={"label_source": "auto_any", "auto_sources": ["prediction"]},
        label_policy={"label_sources": True},
    )
    (row,) = read_rows(export)
    assert row["labels"] == [True, True, False]
    assert row["label_sources"] == ["prediction:my-prm@v3"] * 3
    # In the default priority a prediction comes after the model sources: rollout wins step 0.
    (default,) = read_rows(
        build("trl", filters={"label_source": "auto_any"}, label_policy={"label_sources": True})
    )
    assert default["labels"] == [True, True, False]
    assert default["label_sources"] == [
        "rollout:mc",
        "prediction:my-prm@v3",
        "prediction:my-prm@v3",
    ]
