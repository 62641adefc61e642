"""The review page's grid in real Chromium, with and without annotations.

An admin opens a solution nobody has labeled yet (from the explorer): the grid had no
annotator column, `repeat(0, ...)` is invalid CSS, the whole column template was dropped and
every cell stacked under the step (the header's "#", "Step", "Decision" on three lines, the
decision buttons below the text). Each step's decision must sit beside its text, and with one
annotation too; the find band's controls end at the steps card's right edge.
"""

import json

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from labeling.models import Role
from labeling.services.imports import import_file
from labeling.services.labeling.annotations import annotation_submit
from labeling.services.queue.claim import task_claim_next
from tests.e2e.helpers import login
from tests.factories import MembershipFactory, ProjectFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _project(tmp_path):
    project = ProjectFactory(name="Review layout", first_error_mode=False, overlap=1)
    rows = [
        {
            "problem": f"Compute {n} + {n}.",
            "answer": str(2 * n),
            "steps": [
                f"We add ${n} + {n}$.",
                f"So ${n} + {n} = {2 * n}$.",
                f"The answer is ${2 * n}$.",
            ],
        }
        for n in (3, 4)
    ]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    import_file(project=project, path=path, fmt="steplab")
    users = get_user_model()
    admin = users.objects.create_user(username="ada", password="pw-for-tests")
    MembershipFactory(project=project, user=admin, role=Role.ADMIN)
    ann = users.objects.create_user(username="ann", password="pw-for-tests")
    MembershipFactory(project=project, user=ann, role=Role.ANNOTATOR)
    claim = task_claim_next(project=project, user=ann)
    ids = list(claim.annotation.solution.steps.order_by("index").values_list("id", flat=True))
    annotation_submit(
        annotation=claim.annotation,
        user=ann,
        version=claim.annotation.version,
        labels=[{"step_id": s, "rating": 1} for s in ids],
        time_spent_ms=10_000,
    )
    labeled = claim.annotation.solution_id
    unlabeled = project.solutions.exclude(pk=labeled).get().pk
    return project, labeled, unlabeled


def _assert_beside(page) -> None:
    rows = page.get_by_test_id("review-step")
    expect(rows).to_have_count(3)
    for i in range(3):
        row = rows.nth(i)
        body = row.locator(".review-step-body").bounding_box()
        decide = row.get_by_test_id("decide-1").bounding_box()
        assert decide["x"] >= body["x"] + body["width"] - 1, (i, body, decide)
        assert decide["y"] < body["y"] + body["height"], (i, body, decide)
    head = page.locator(".review-head").bounding_box()
    assert head["height"] < 60, head  # one line of column names, not three


def test_the_decision_sits_beside_each_step_with_and_without_annotations(
    live_server, page, screenshot, tmp_path
):
    project, labeled, unlabeled = _project(tmp_path)
    page.set_viewport_size({"width": 1400, "height": 900})
    login(page, live_server.url, "ada", "pw-for-tests")
    for name, solution_id in (("none", unlabeled), ("one", labeled)):
        page.goto(f"{live_server.url}/projects/{project.pk}/review/{solution_id}")
        page.get_by_test_id("review-step").first.wait_for(state="visible")
        expect(page.get_by_test_id("review-grid")).to_have_attribute(
            "data-columns", "0" if name == "none" else "1"
        )
        _assert_beside(page)
        screenshot(f"review-layout-{name}-annotations")

    page.keyboard.press("/")
    expect(page.get_by_test_id("step-find-input")).to_be_focused()
    close = page.get_by_test_id("step-find-close").bounding_box()
    card = page.locator(".review-grid").bounding_box()
    assert (
        card["x"] + card["width"] - 80
        <= close["x"] + close["width"]
        <= card["x"] + card["width"] + 1
    )
    screenshot("review-layout-find")
