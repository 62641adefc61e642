"""What a client sends and a later read serves back is bounded: an error answer that repeats
the request (unknown keys, one message per bad item) and a free-form object a client stores
(a registered model's metrics, served by an unpaginated list)."""

import json

import pytest
from rest_framework.test import APIClient

from labeling.api.errors import DETAILS_MAX_BYTES, MESSAGE_MAX
from training_runs.models import PrmModel

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_an_error_does_not_repeat_the_whole_request(pb_project):
    """20,000 unknown params came back as a 190 kB message."""
    keys = {f"unknown-{i:05d}": 1 for i in range(20_000)}
    answer = _client(pb_project.admin).post(
        f"/api/projects/{pb_project.pk}/autolabel-runs/",
        {"sources": ["answer"], "params": {"answer": keys}},
        format="json",
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "validation_error"
    assert error["message"].startswith("params.answer: unknown answer params: ['unknown-00000'")
    assert len(error["message"]) <= MESSAGE_MAX + 1 and error["message"].endswith("…")
    assert error["details"]["field"] == "params.answer"  # small details stay as they are
    assert len(answer.content) < 8_000


def test_validation_details_of_many_bad_items_are_cut(pb_project):
    """One message per bad item of a list, under its index, was the whole answer."""
    answer = _client(pb_project.admin).post(
        f"/api/projects/{pb_project.pk}/exports/preview/",
        {"filters": {"annotators": ["x" * 151] * 1000}},
        format="json",
    )
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "validation_error" and error["details"]["truncated"] is True
    assert error["message"].startswith("filters: annotators: 0: Ensure this field has no more")
    assert len(json.dumps(error["details"])) <= DETAILS_MAX_BYTES
    assert len(answer.content) < DETAILS_MAX_BYTES + 4 * MESSAGE_MAX


def test_a_models_metrics_are_bounded(pb_project, tmp_path, settings):
    model = tmp_path / "models" / "good"
    model.mkdir(parents=True)
    (model / "config.json").write_text("{}")
    settings.MODEL_DIRS = [str(tmp_path / "models")]
    client, url = _client(pb_project.admin), f"/api/projects/{pb_project.pk}/prm-models/"
    big = {f"k{i}": "x" * 1000 for i in range(100)}
    answer = client.post(url, {"name": "m", "path": str(model), "metrics": big}, format="json")
    assert answer.status_code == 400, answer.status_code
    assert answer.json()["error"]["details"]["metrics"] == [
        "at most 65536 bytes of JSON, got 100891."
    ]
    assert not PrmModel.objects.exists()
    small = {"eval": {"f1": 0.8}}
    answer = client.post(url, {"name": "m", "path": str(model), "metrics": small}, format="json")
    assert answer.status_code == 201 and answer.json()["metrics"] == small
