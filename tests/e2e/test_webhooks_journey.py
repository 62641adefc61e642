"""Webhooks in real Chromium: a project admin adds a webhook in the Webhooks tab, copies the
secret shown once, sends a test event that a real worker delivers to a receiver (which verifies
the signature with that secret), and reads the delivery in the log; then an export's event."""

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from labeling.models import ProjectMembership
from labeling.services.exports.snapshots import export_build, export_create
from tests.e2e.helpers import login, wait_for
from tests.factories import ProjectFactory, SolutionFactory
from tests.webhooks.conftest import Receiver, running_receiver

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with running_receiver() as state:
        yield state


def test_add_a_webhook_send_a_test_and_read_the_log(
    page,
    live_server,
    screenshot,
    settings,
    receiver,
    celery_worker_live,
):
    settings.WEBHOOK_ALLOW_PRIVATE = True  # the receiver is on 127.0.0.1
    settings.WEBHOOK_RETRY_BASE_S = 0.5
    admin = get_user_model().objects.create_user("hanna", password="hanna-password-1")
    project = ProjectFactory(name="Webhook demo")
    SolutionFactory(problem__project=project, steps=3)
    ProjectMembership.objects.create(project=project, user=admin, role="admin")

    login(page, live_server.url, "hanna", "hanna-password-1")
    page.goto(f"{live_server.url}/projects/{project.pk}?tab=webhooks")
    expect(page.get_by_test_id("webhooks-empty")).to_be_visible()
    page.get_by_test_id("webhook-url").fill(receiver.url)
    page.get_by_test_id("webhook-description").fill("CI: train when an export is ready")
    page.get_by_test_id("webhook-event-export.ready").check()
    page.get_by_test_id("webhook-event-import.finished").check()
    page.get_by_test_id("webhook-submit").click()
    secret = page.get_by_test_id("webhook-secret")
    expect(secret).to_be_visible()
    receiver.secret = secret.input_value()
    assert receiver.secret.startswith("whsec_")
    row = page.locator("[data-testid^=webhook-row-]")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("export.ready")

    receiver.answers = [500, 200]  # the first attempt fails: the log shows the retry
    row.get_by_role("button", name="Send test").click()
    log = page.get_by_test_id("webhook-log")
    expect(log).to_be_visible()
    wait_for(lambda: len(receiver.received) >= 2, timeout=30)
    log.get_by_test_id("webhook-log-refresh").click()
    expect(log.get_by_test_id("webhook-log-table")).to_contain_text("delivered", timeout=15_000)
    expect(log).to_contain_text("webhook.test")
    assert [p["type"] for p in receiver.verified()] == ["webhook.test", "webhook.test"]

    export_build(export=export_create(project=project, created_by=admin, format="trl"))
    wait_for(lambda: len(receiver.received) >= 3, timeout=30)
    event = receiver.verified()[-1]
    assert event["type"] == "export.ready" and event["data"]["download_url"].endswith("/download/")
    log.get_by_test_id("webhook-log-refresh").click()
    expect(log.get_by_test_id("webhook-log-table")).to_contain_text("export.ready")
    screenshot("webhooks-tab", full_page=True)
