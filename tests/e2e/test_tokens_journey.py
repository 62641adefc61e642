"""API tokens in real Chromium: a user opens the user menu's API tokens dialog, creates a named
token with an expiry, copies the secret shown once, uses it from a script (httpx, Bearer) against
the live server, sees "last used" in the list, revokes it in its row, and the script gets 401.
"""

from datetime import timedelta

import httpx
import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from labeling.models import ApiToken
from labeling.services.people.tokens import token_create, token_mark_used
from tests.e2e.helpers import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _open_dialog(page):
    page.get_by_test_id("user-menu").click()
    page.get_by_test_id("api-token").click()
    dialog = page.get_by_test_id("token-dialog")
    expect(dialog).to_be_visible()
    return dialog


def test_create_use_and_revoke_a_token(page, live_server, screenshot):
    user = get_user_model().objects.create_user("tess", password="tess-password-1")
    # Two tokens from before, so the list looks like a real one: a used one, an expired one.
    laptop = token_create(user=user, name="laptop").token
    token_mark_used(token=laptop, now=timezone.now() - timedelta(hours=3))
    old = token_create(user=user, name="old CI runner", expires_in_days=7).token
    ApiToken.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(days=2))

    login(page, live_server.url, "tess", "tess-password-1")
    dialog = _open_dialog(page)
    rows = dialog.get_by_test_id("token-row")
    expect(rows).to_have_count(2)
    expect(rows.filter(has_text="old CI runner")).to_contain_text("Expired")

    dialog.get_by_test_id("token-name").fill("training box")
    dialog.get_by_test_id("token-expiry").select_option(label="90 days")
    dialog.get_by_test_id("token-create").click()
    secret_input = dialog.get_by_test_id("token-value")
    expect(secret_input).to_be_visible()
    secret = secret_input.input_value()
    assert secret.startswith("stp_")
    expect(dialog.get_by_test_id("token-created")).to_contain_text("will not be shown again")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text("training box")
    expect(rows.first).to_contain_text(secret[:8] + "…")
    screenshot("tokens-created")

    # A script uses it.
    script = httpx.Client(base_url=live_server.url, headers={"Authorization": f"Bearer {secret}"})
    me = script.get("/api/auth/me/")
    assert me.status_code == 200 and me.json()["username"] == "tess"

    # Reopened: the secret is gone for good, the row says when it was last used.
    dialog.get_by_test_id("token-close").click()
    dialog = _open_dialog(page)
    expect(dialog.get_by_test_id("token-value")).to_have_count(0)
    first = dialog.get_by_test_id("token-row").first
    expect(first).to_contain_text("training box")
    expect(first.locator("td").nth(4)).not_to_have_text("Never")
    assert secret not in page.content()

    first.get_by_test_id("token-revoke").click()
    confirm = dialog.get_by_test_id("token-confirm")
    expect(confirm).to_contain_text("Revoke “training box”")
    screenshot("tokens-revoke-confirm")
    confirm.get_by_test_id("token-revoke-confirm").click()
    rows = dialog.get_by_test_id("token-row")
    expect(rows).to_have_count(2)
    expect(dialog).not_to_contain_text("training box")

    refused = script.get("/api/auth/me/")
    assert refused.status_code == 401
    assert refused.json()["error"]["message"] == "This token was revoked."
    # The other tokens were left alone.
    assert ApiToken.objects.filter(user=user, revoked_at__isnull=False).count() == 1
