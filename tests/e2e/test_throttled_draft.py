"""A throttled draft save (429 with Retry-After) in Chromium: the page says so, waits the
server's Retry-After rather than its own shorter backoff, then saves the draft."""

import json
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import first_rating, open_demo_label_page, pause_in, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_throttled_save_waits_the_retry_after_and_then_saves(live_server, page, screenshot):
    _, annotation = open_demo_label_page(page, live_server.url)

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
    assert first_rating(annotation.pk) != -1
    wait_for(lambda: first_rating(annotation.pk) == -1, timeout=20, pause=pause_in(page))
    expect(save_state).to_have_attribute("data-status", "saved", timeout=10_000)
    assert len(sent) == 2
    assert sent[1] - sent[0] >= 3.5  # the Retry-After, not the 1 s backoff
    screenshot("throttled-draft-saved")
