"""Uploaded predictions on the label page: a chip named by the model, accepted by a click."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Project, Solution
from labeling.services.imports.predictions import predictions_upload
from tests.e2e.helpers import login
from tests.e2e.test_annotator_journey import DEMO

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_prediction_chip_names_its_model_and_is_accepted(live_server, page, screenshot):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    first = Solution.objects.filter(project=project).order_by("id").first()
    count = first.steps.count()
    labels = [1] * (count - 1) + [-1]
    scores = [0.93] * (count - 1) + [0.07]
    body = (
        f'{{"id": "{first.external_id}", "name": "my-prm", "version": "v3", '
        f'"labels": {labels}, "scores": {scores}}}\n'
    ).encode()
    predictions_upload(project=project, source=io.BytesIO(body), filename="preds.jsonl")

    login(page, live_server.url, "annotator", "steplab-annotator")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    expect(rows).to_have_count(count)
    last = rows.nth(count - 1)
    chip = last.locator('[data-testid="suggestion-chip"][data-source="prediction"]')
    expect(chip).to_have_count(1)
    expect(chip).to_contain_text("my-prm@v3")
    expect(chip).to_contain_text("7%")
    title = chip.get_attribute("title")
    assert title.startswith("Predictions · my-prm@v3: wrong (−1) (P(correct) 7%)"), title
    assert "Uploaded in preds.jsonl, line 1" in title
    screenshot("predictions-chip")
    chip.click()
    expect(last).to_have_attribute("data-rating", "-1")
    expect(page.get_by_test_id("save-state")).to_contain_text("Saved")
