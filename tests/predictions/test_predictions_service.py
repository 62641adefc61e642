"""labeling.services.imports.predictions: stored as suggestions, atomic, idempotent, bounded."""

import gzip
import io

import pytest

from labeling.importers import ImportFileError
from labeling.models import Suggestion
from labeling.services.imports.predictions import predictions_upload
from tests.predictions.conftest import jsonl


def _upload(project, body: bytes, **kwargs):
    return predictions_upload(
        project=project, source=io.BytesIO(body), filename="preds.jsonl", **kwargs
    )


def _stored(agent: str = "my-prm@v3") -> dict:
    return {
        (s.step.solution.external_id, s.step.index): (s.value, s.score)
        for s in Suggestion.objects.filter(source="prediction", agent=agent).select_related(
            "step__solution"
        )
    }


LINE = {
    "id": "s0",
    "name": "my-prm",
    "version": "v3",
    "labels": [1, 1, -1],
    "scores": [0.9, 0.8, 0.1],
}


def test_lines_become_prediction_suggestions(solutions):
    project = solutions["project"]
    result = _upload(
        project, jsonl([LINE, {**LINE, "id": "s1", "labels": [None, -1], "scores": [0.6, 0.2]}])
    )
    assert result.as_dict() == {
        "solutions": 2,
        "steps_written": 5,
        "steps_created": 5,
        "steps_updated": 0,
        "steps_removed": 0,
        "sources": ["my-prm@v3"],
    }
    assert _stored() == {
        ("s0", 0): (1, 0.9),
        ("s0", 1): (1, 0.8),
        ("s0", 2): (-1, 0.1),
        ("s1", 0): (None, 0.6),
        ("s1", 1): (-1, 0.2),
    }
    evidence = Suggestion.objects.filter(source="prediction").first().evidence
    assert evidence["upload"] == "preds.jsonl" and evidence["line"] in (1, 2) and evidence["at"]
    # The other project's solution with the same external id is left alone.
    assert not Suggestion.objects.filter(step__solution=solutions["other"]).exists()


def test_same_upload_again_updates_in_place(solutions):
    project = solutions["project"]
    _upload(project, jsonl([LINE]))
    ids = set(Suggestion.objects.values_list("pk", flat=True))
    again = _upload(project, jsonl([{**LINE, "labels": [1, -1, -1]}]))
    assert (again.steps_created, again.steps_updated, again.steps_written) == (0, 3, 3)
    assert set(Suggestion.objects.values_list("pk", flat=True)) == ids  # no duplicates
    assert _stored()[("s0", 1)] == (-1, 0.8)


def test_a_new_prediction_of_a_solution_replaces_the_old_one(solutions):
    """A step the source no longer predicts loses its old label; other sources stay."""
    project = solutions["project"]
    _upload(project, jsonl([LINE, {**LINE, "version": "v4"}]))
    result = _upload(project, jsonl([{**LINE, "labels": [1], "scores": [0.7]}]))
    assert result.steps_removed == 2
    assert _stored() == {("s0", 0): (1, 0.7)}
    assert len(_stored("my-prm@v4")) == 3


def test_sparse_steps_and_upload_wide_name(solutions):
    body = jsonl(
        [
            {
                "id": "s2",
                "steps": [{"index": 3, "value": -1, "score": 0.05}, {"index": 0, "score": 0.99}],
            }
        ]
    )
    result = _upload(solutions["project"], body, name="my-prm", version="v3")
    assert result.steps_written == 2
    assert _stored() == {("s2", 0): (None, 0.99), ("s2", 3): (-1, 0.05)}


def test_json_array_and_gzip(solutions):
    project = solutions["project"]
    body = b'[{"id": "s0", "name": "my-prm", "version": "v3", "labels": [1, 0]}]'
    assert _upload(project, body, kind="json").steps_written == 2
    assert _upload(project, gzip.compress(jsonl([LINE]))).steps_written == 3
    assert _stored()[("s0", 2)] == (-1, 0.1)


@pytest.mark.parametrize(
    ("lines", "line", "field", "words"),
    [
        ([LINE, {**LINE, "id": "nope"}], 2, "id", "no solution with id 'nope'"),
        (
            [LINE, {**LINE, "id": "s1", "labels": [1, 1, 1, 1, 1], "scores": None}],
            2,
            "labels",
            "past the solution's 4 steps",
        ),
        (
            [
                LINE,
                {
                    **LINE,
                    "id": "s1",
                    "steps": [{"index": 9, "value": 1}],
                    "labels": None,
                    "scores": None,
                },
            ],
            2,
            "steps",
            "step 9",
        ),
        ([LINE, LINE], 2, "id", "given twice for my-prm@v3 (first at line 1)"),
        ([LINE, {**LINE, "labels": [1, "yes", 1]}], 2, "labels[1]", "expected -1, 0 or 1"),
        ([LINE, {**LINE, "scores": [0.1, 2, 0.3]}], 2, "scores[1]", "between 0 and 1"),
        ([LINE, {**LINE, "version": "v 3"}], 2, "version", "not a valid version"),
        ([LINE, "{not json"], 2, None, "invalid JSON"),
    ],
)
def test_a_bad_line_writes_nothing(solutions, lines, line, field, words):
    project = solutions["project"]
    with pytest.raises(ImportFileError) as caught:
        _upload(project, jsonl(lines))
    error = caught.value
    assert (error.line, error.field) == (line, field), error
    assert words in error.message
    assert not Suggestion.objects.exists()


def test_a_bad_item_of_a_json_array_names_the_item(solutions):
    body = b'[{"id": "s0", "labels": [1]}, {"id": "s1", "labels": [7]}]'
    with pytest.raises(ImportFileError) as caught:
        _upload(solutions["project"], body, kind="json", name="m", version="1")
    assert (caught.value.line, caught.value.field) == (None, "[1].labels[0]")
    assert not Suggestion.objects.exists()


def test_a_failure_after_a_written_batch_rolls_everything_back(solutions, monkeypatch):
    from labeling.services.imports import predictions

    monkeypatch.setattr(predictions, "BATCH_LINES", 1)
    with pytest.raises(ImportFileError):
        _upload(solutions["project"], jsonl([LINE, {**LINE, "id": "s1"}, {**LINE, "id": "zz"}]))
    assert not Suggestion.objects.exists()


def test_bounds(solutions, settings):
    project = solutions["project"]
    settings.PREDICTIONS_MAX_LINES = 2
    with pytest.raises(ImportFileError) as caught:
        _upload(project, jsonl([LINE, {**LINE, "id": "s1"}, {**LINE, "id": "s2"}]))
    assert caught.value.line == 3 and "PREDICTIONS_MAX_LINES" in caught.value.message
    settings.PREDICTIONS_MAX_LINES = 100
    settings.PREDICTIONS_MAX_STEPS = 2
    with pytest.raises(ImportFileError) as caught:
        _upload(project, jsonl([LINE]))
    assert caught.value.field == "labels" and "PREDICTIONS_MAX_STEPS" in caught.value.message
    settings.PREDICTIONS_MAX_STEPS = 100
    with pytest.raises(ImportFileError) as caught:
        _upload(project, jsonl([LINE] * 50), max_bytes=1000)
    assert caught.value.status == 413
    # A gzip bomb is bounded by what it expands to, not by its own size.
    bomb = gzip.compress(jsonl([LINE]) + b" " * 5000 + b"\n")
    with pytest.raises(ImportFileError) as caught:
        _upload(project, bomb, max_bytes=1000)
    assert "1000 bytes" in caught.value.message
    assert not Suggestion.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        b"[" + b"[" * 50_000 + b"]" * 50_000 + b"]",
        b'[{"id": "s0", "x": ' + b'{"a": ' * 50_000 + b"1" + b"}" * 50_000 + b"}]",
    ],
    ids=["arrays", "objects"],
)
def test_a_deeply_nested_json_array_is_refused_while_read(solutions, body):
    """Bounded as the events come (building the item first took gigabytes)."""
    with pytest.raises(ImportFileError) as caught:
        _upload(solutions["project"], body, kind="json", name="m", version="1")
    assert "nested deeper than" in caught.value.message and caught.value.field == "[0]"


def test_anything_after_the_json_array_is_an_error(solutions):
    body = b'[{"id": "s0", "labels": [1]}] [{"id": "s1", "labels": [1]}]'
    with pytest.raises(ImportFileError, match="invalid JSON"):
        _upload(solutions["project"], body, kind="json", name="m", version="1")
    assert not Suggestion.objects.exists()
