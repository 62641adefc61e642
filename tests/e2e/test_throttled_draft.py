"""A throttled draft save (429 with Retry-After) in Chromium: the page says so, waits the
server's Retry-After rather than its own shorter backoff, then saves the draft."""

import json
import time

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Annotation, AnnotationStatus, Project

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEMO = "Demo: step labeling"


def _wait_for(page, predicate, timeout: float = 20.0):
    """Waits through Playwright, which runs the route handler meanwhile (a sleep would not)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        page.wait_for_timeout(100)
    raise AssertionError("condition not met in time")


def _first_rating(annotation_id: int):
    label = Annotation.objects.get(pk=annotation_id).labels.filter(step__index=0).first()
    return None if label is None else label.rating


def test_a_throttled_save_waits_the_retry_after_and_then_saves(live_server, page, screenshot):
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

    sent: list[float] = []

    def throttle_first(route):
        sent.append(time.monotonic())
        if len(sent) > 1:
            route.continue_()
            return
        body = {"error": {"code": "throttled", "message": "Saving too often.", "details": {}}}
        route.fulfill(
            status=429,
            headers={"Retry-After": "4", "Content-Type": "application/json"},
            body=json.dumps(body),
        )

    page.route(f"**/api/annotations/{annotation.pk}/draft/", throttle_first)
    page.keyboard.press("1")  # first step: wrong
    save_state = page.get_by_test_id("save-state")
    expect(save_state).to_contain_text("Saving too often", timeout=10_000)
    screenshot("throttled-draft-waiting")
    assert _first_rating(annotation.pk) != -1
    _wait_for(page, lambda: _first_rating(annotation.pk) == -1)
    expect(save_state).to_have_attribute("data-status", "saved", timeout=10_000)
    assert len(sent) == 2
    assert sent[1] - sent[0] >= 3.5  # the Retry-After, not the 1 s backoff
    screenshot("throttled-draft-saved")
