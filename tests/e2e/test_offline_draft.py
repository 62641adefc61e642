"""A browser that loses its connection keeps the draft in localStorage and saves it when back."""

import json
import time

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Annotation, AnnotationStatus, Project

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEMO = "Demo: step labeling"


def _wait_for(predicate, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(0.1)
    raise AssertionError("condition not met in time")


def _first_rating(annotation_id: int):
    label = (
        Annotation.objects.get(pk=annotation_id).labels.filter(step__index=0).first()
    )  # fmt: skip
    return None if label is None else label.rating


def test_offline_draft_is_kept_locally_and_reaches_the_server_when_back(
    live_server, page, context, screenshot
):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    page.goto(f"{live_server.url}/login")
    page.get_by_test_id("login-username").fill("annotator")
    page.get_by_test_id("login-password").fill("steplab-annotator")
    page.get_by_test_id("login-submit").click()
    page.wait_for_url(f"{live_server.url}/projects")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    expect(rows.first).to_be_visible()
    annotation = Annotation.objects.get(
        annotator__username="annotator", status=AnnotationStatus.DRAFT
    )
    key = f"steplab:draft:{annotation.pk}"

    context.set_offline(True)
    page.keyboard.press("1")  # first step: wrong
    expect(rows.first).to_have_attribute("data-rating", "-1")
    save_state = page.get_by_test_id("save-state")
    expect(save_state).to_have_attribute("data-status", "offline", timeout=10_000)
    expect(save_state).to_contain_text("Offline")
    screenshot("offline-draft-kept")
    stored = json.loads(page.evaluate(f"localStorage.getItem('{key}')"))
    assert stored["annotationId"] == annotation.pk
    assert [lb["rating"] for lb in stored["payload"]["labels"]][:1] == [-1]
    assert _first_rating(annotation.pk) != -1  # nothing reached the server

    context.set_offline(False)
    _wait_for(lambda: _first_rating(annotation.pk) == -1)
    expect(save_state).to_have_attribute("data-status", "saved", timeout=10_000)
    assert page.evaluate(f"localStorage.getItem('{key}')") is None
    screenshot("offline-draft-saved")
