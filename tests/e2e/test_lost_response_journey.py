"""A write that reached the server but whose answer was lost is not a false conflict.

Playwright's `page.route` sends the request on to the live server (`route.fetch()`, so the
server commits it) and then resets the connection to the page (`route.abort("connectionreset")`)
the first time. The page retries the same write (same request_id), and the server answers it as
the success it was.
"""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Annotation, AnnotationStatus, LabelHistory, Project, Solution
from tests.e2e.helpers import login, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEMO = "Demo: step labeling"


def _lose_first_answer(page, pattern: str) -> dict:
    """Route `pattern`: the first request reaches the server, its answer never reaches the page."""
    seen: dict = {"requests": [], "first_status": None}

    def handle(route) -> None:
        seen["requests"].append(route.request.post_data_json)
        if seen["first_status"] is None:
            response = route.fetch()  # the server handles (and commits) the write
            seen["first_status"] = response.status
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(pattern, handle)
    return seen


def _wait_serving_routes(page, predicate, timeout_ms: int = 10_000) -> None:
    """Poll `predicate` while Playwright runs (route handlers only run inside its calls)."""
    for _ in range(timeout_ms // 100):
        if predicate():
            return
        page.wait_for_timeout(100)
    raise AssertionError("condition not met in time")


def _open_labeling(page, live_server) -> tuple[Project, Annotation]:
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    login(page, live_server.url, "annotator")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    expect(page.get_by_test_id("step-row")).to_have_count(5)
    draft = Annotation.objects.get(annotator__username="annotator", status=AnnotationStatus.DRAFT)
    return project, draft


def test_a_submit_whose_answer_was_lost_ends_in_success(live_server, page, screenshot):
    _project, draft = _open_labeling(page, live_server)
    rows = page.get_by_test_id("step-row")
    seen = _lose_first_answer(page, "**/api/annotations/*/submit/")

    for _ in range(5):
        page.keyboard.press("3")
    expect(rows.nth(4)).to_have_attribute("data-rating", "1")
    page.keyboard.press("Enter")

    notice = page.get_by_test_id("notice")
    expect(notice).to_have_text("The connection dropped; checking whether it was submitted…")
    page.wait_for_timeout(250)  # the toast's entry animation; the retry comes after 1 s
    screenshot("lost-response-submit-checking")
    expect(notice).to_have_text("Submitted", timeout=10_000)
    # The next solution: nothing rated, a new draft on another solution.
    expect(rows.first).to_have_attribute("data-rating", "")
    expect(page.get_by_test_id("conflict-banner")).to_have_count(0)
    nxt = wait_for(
        lambda: Annotation.objects.filter(
            annotator__username="annotator", status=AnnotationStatus.DRAFT
        ).first()
    )
    assert nxt.solution_id != draft.solution_id
    screenshot("lost-response-submit-next")

    # The first request was really applied; the retry was the same write.
    assert seen["first_status"] == 200
    assert len(seen["requests"]) == 2
    assert seen["requests"][1] == seen["requests"][0]
    assert seen["requests"][0]["request_id"]

    mine = Annotation.objects.filter(solution_id=draft.solution_id, annotator__username="annotator")
    assert mine.count() == 1
    submitted = mine.get()
    assert submitted.status == AnnotationStatus.SUBMITTED
    assert submitted.version == seen["requests"][0]["version"] + 1  # applied once
    ratings = list(submitted.labels.order_by("step__index").values_list("rating", flat=True))
    assert ratings == [1, 1, 1, 1, 1]
    assert Solution.objects.get(pk=draft.solution_id).submitted_count == 1
    submit_rows = LabelHistory.objects.filter(annotation=submitted, action="submit")
    steps = list(submit_rows.values_list("step_id", flat=True))
    assert len(steps) == len(set(steps))  # no duplicated audit rows


def test_a_draft_save_whose_answer_was_lost_is_not_a_conflict(live_server, page, screenshot):
    _project, draft = _open_labeling(page, live_server)
    rows = page.get_by_test_id("step-row")
    seen = _lose_first_answer(page, "**/api/annotations/*/draft/")

    page.keyboard.press("1")  # first step: wrong
    expect(rows.first).to_have_attribute("data-rating", "-1")
    save_state = page.get_by_test_id("save-state")
    expect(save_state).to_have_attribute("data-status", "offline", timeout=10_000)
    expect(save_state).to_have_attribute("data-status", "saved", timeout=10_000)
    expect(page.get_by_test_id("conflict-banner")).to_have_count(0)
    screenshot("lost-response-draft-saved")

    assert seen["first_status"] == 200
    assert len(seen["requests"]) == 2
    assert seen["requests"][1]["request_id"] == seen["requests"][0]["request_id"]
    draft.refresh_from_db()
    assert draft.version == 2  # applied once
    assert draft.labels.get(step__index=0).rating == -1
    # One audit row per step, written once (the retry wrote none).
    steps = list(
        LabelHistory.objects.filter(annotation=draft, action="draft").values_list(
            "step_id", flat=True
        )
    )
    assert len(steps) == 5
    assert len(set(steps)) == 5

    # The saver carries on: the next change is a new write on the new version.
    page.keyboard.press("3")
    expect(rows.nth(1)).to_have_attribute("data-rating", "1")
    _wait_serving_routes(page, lambda: Annotation.objects.get(pk=draft.pk).version == 3)
    expect(save_state).to_have_attribute("data-status", "saved")
    assert len(seen["requests"]) == 3
    assert seen["requests"][2]["request_id"] != seen["requests"][0]["request_id"]
    assert seen["requests"][2]["version"] == 2
