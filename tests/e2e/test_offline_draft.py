"""A browser that loses its connection keeps the draft in localStorage and saves it when back."""

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import first_rating, open_demo_label_page, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_offline_draft_is_kept_locally_and_reaches_the_server_when_back(
    live_server, page, context, screenshot
):
    rows, annotation = open_demo_label_page(page, live_server.url)
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
    assert first_rating(annotation.pk) != -1  # nothing reached the server

    context.set_offline(False)
    wait_for(lambda: first_rating(annotation.pk) == -1, timeout=20)
    expect(save_state).to_have_attribute("data-status", "saved", timeout=10_000)
    assert page.evaluate(f"localStorage.getItem('{key}')") is None
    screenshot("offline-draft-saved")
