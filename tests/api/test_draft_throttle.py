"""Draft saves are throttled per user: a client saving in a loop gets JSON 429s with
Retry-After, and nothing it sent then is written."""

import pytest
from django.core.cache import cache

from labeling.api.throttles import DraftThrottle
from labeling.models import Annotation, LabelHistory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def low_rate(settings, monkeypatch):
    cache.clear()
    # A stopped clock: however slow the machine, every request falls in the same second.
    monkeypatch.setattr(DraftThrottle, "timer", lambda self: 1_000_000.0)
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            "login_ip": "1000/min",
            "login_user": "1000/min",
            "draft": "5/s",
        },
    }
    yield
    cache.clear()


def _steps(client, world):
    task = client.post(f"/api/projects/{world['project'].pk}/queue/next/").json()
    return task["annotation"]["id"], [s["id"] for s in task["solution"]["steps"]]


def test_a_save_loop_is_refused_with_retry_after(world, client_for):
    client = client_for("annotator")
    aid, steps = _steps(client, world)
    answers = []
    for i in range(8):
        body = {"version": i + 1, "labels": [{"step_id": steps[0], "rating": (1, -1)[i % 2]}]}
        answers.append(client.put(f"/api/annotations/{aid}/draft/", body, format="json"))
    assert [a.status_code for a in answers] == [200] * 5 + [429] * 3
    refused = answers[-1]
    assert refused["Retry-After"] == "1"
    error = refused.json()["error"]
    assert error["code"] == "throttled"
    assert error["message"].startswith("Saving too often. Your draft is kept")
    assert Annotation.objects.get(pk=aid).version == 6  # the refused ones wrote nothing
    assert LabelHistory.objects.filter(annotation_id=aid).count() == 1  # and coalesced


def test_the_throttle_is_per_user_and_drafts_only(world, client_for):
    client, spare = client_for("annotator"), client_for("spare")
    aid, steps = _steps(client, world)
    for i in range(5):
        body = {"version": i + 1, "labels": [{"step_id": steps[0], "rating": 1}]}
        assert client.put(f"/api/annotations/{aid}/draft/", body, format="json").status_code == 200
    body = {"version": 6, "labels": [{"step_id": steps[0], "rating": 1}]}
    assert client.put(f"/api/annotations/{aid}/draft/", body, format="json").status_code == 429
    # Another annotator saves as usual; the throttled one can still submit.
    spare_aid, spare_steps = _steps(spare, world)
    body = {"version": 1, "labels": [{"step_id": spare_steps[0], "rating": 1}]}
    assert spare.put(f"/api/annotations/{spare_aid}/draft/", body, format="json").status_code == 200
    labels = [{"step_id": s, "rating": 1} for s in steps]
    done = client.post(
        f"/api/annotations/{aid}/submit/", {"version": 6, "labels": labels}, format="json"
    )
    assert done.status_code == 200
