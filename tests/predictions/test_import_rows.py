"""An import row's `predictions` (steplab JSON Lines) become prediction suggestions."""

import pytest

from labeling.importers import ImportFileError
from labeling.models import Suggestion
from labeling.services.imports import import_file
from tests.factories import ProjectFactory
from tests.predictions.conftest import jsonl

ROW = {
    "id": "r1",
    "problem": "What is 2+3?",
    "answer": "5",
    "steps": ["2+3 = 5", "So 5", "The answer is 5"],
    "labels": [1, 1, 1],
    "predictions": [
        {"name": "my-prm", "version": "v3", "labels": [1, -1], "scores": [0.9, 0.2]},
        {"name": "other", "version": "0.1", "steps": [{"index": 2, "score": 0.7}]},
    ],
}


def _import(tmp_path, rows, **kwargs):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(jsonl(rows))
    project = ProjectFactory()
    return project, import_file(project=project, path=path, fmt="steplab", **kwargs)


@pytest.mark.parametrize("labels_as", ["suggestions", "annotations", "none"])
def test_row_predictions_are_stored_beside_the_labels(db, tmp_path, labels_as):
    project, result = _import(
        tmp_path, [ROW, {**ROW, "id": "r2", "predictions": None}], labels_as=labels_as
    )
    assert result.predictions_created == 3
    stored = {
        (s.agent, s.step.index): (s.value, s.score, s.evidence["line"])
        for s in Suggestion.objects.filter(source="prediction", step__solution__project=project)
    }
    assert stored == {
        ("my-prm@v3", 0): (1, 0.9, 1),
        ("my-prm@v3", 1): (-1, 0.2, 1),
        ("other@0.1", 2): (None, 0.7, 1),
    }
    imported = Suggestion.objects.filter(source="import").count()
    assert imported == (6 if labels_as == "suggestions" else 0)


@pytest.mark.parametrize(
    ("predictions", "field", "words"),
    [
        (
            [{"name": "m", "version": "1", "labels": [1, 1, 1, 1]}],
            "predictions[0]",
            "of a 3-step solution",
        ),
        (
            [
                {"name": "m", "version": "1", "labels": [1]},
                {"name": "m", "version": "1", "labels": [0]},
            ],
            "predictions[1]",
            "given twice",
        ),
        ([{"name": "m", "labels": [1]}], "predictions[0].version", "missing field"),
        (
            [{"name": "m", "version": "1", "scores": [3]}],
            "predictions[0].scores[0]",
            "between 0 and 1",
        ),
        ("yes", "predictions", "expected a list"),
    ],
)
def test_bad_row_predictions_fail_the_line(db, tmp_path, predictions, field, words):
    with pytest.raises(ImportFileError) as caught:
        _import(tmp_path, [{**ROW, "predictions": predictions}])
    assert (caught.value.line, caught.value.field) == (1, field)
    assert words in caught.value.message
    assert not Suggestion.objects.exists()
