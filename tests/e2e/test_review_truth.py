"""Review that tells the truth, in real Chromium (issue 23): one annotator labels a solution
whose step 2 a machine source calls wrong. The reviewer finds it under "1 annotator" (not
"Annotators agree"), sees the human ≠ machine mark with its tooltip, jumps between marked
steps with m, and the dashboard counts the solution apart with the annotator's own card.
"""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Annotation, AnnotationStatus, Project, Solution, Suggestion
from labeling.services.review.reasons import review_reasons_refresh
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEMO = "Demo: step labeling"
VIEWPORT = {"width": 1400, "height": 900}


def _shot(page, name: str, *, full_page: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


def test_reviewer_sees_one_annotator_and_human_machine_marks(live_server, browser):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    project.overlap = 2
    project.save(update_fields=["overlap"])
    base = live_server.url

    # One annotator rates every step of their next solution +1 (key 3) and submits.
    page = browser.new_page(viewport=VIEWPORT)
    login(page, base, "annotator")
    page.goto(f"{base}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    expect(rows.first).to_be_visible()
    n = rows.count()
    # The labeling page explains its chips (the demo's imported labels here) in a key.
    expect(page.get_by_test_id("mark-legend")).to_contain_text("Imported label")
    _shot(page, "truth-00-label-legend")
    for _ in range(n):
        page.keyboard.press("3")
    page.keyboard.press("Enter")
    annotation = wait_for(
        lambda: Annotation.objects.filter(
            annotator__username="annotator", status=AnnotationStatus.SUBMITTED
        ).first()
    )
    page.close()
    solution = Solution.objects.get(pk=annotation.solution_id)
    steps = list(solution.steps.order_by("index"))
    assert len(steps) >= 3
    # Machine sources disagree on steps 2 and 3 (an LLM judge, a PRM); the rest is left as the
    # demo has it. Written past the services, like a worker's upsert: refresh the reasons.
    Suggestion.objects.update_or_create(
        step=steps[1], source="judge", agent="e2e", defaults={"value": -1, "evidence": {}}
    )
    Suggestion.objects.update_or_create(
        step=steps[2], source="prm", agent="e2e", defaults={"value": -1, "score": 0.1}
    )
    review_reasons_refresh(solution_ids=[solution.pk])

    # The reviewer filters the queue to "1 annotator": the solution is there, never "agree".
    page = browser.new_page(viewport=VIEWPORT)
    login(page, base, "reviewer")
    page.goto(f"{base}/projects/{project.pk}/review")
    expect(page.get_by_test_id("count-single_annotator")).to_contain_text("1")
    page.get_by_test_id("count-single_annotator").click()
    queue = page.get_by_test_id("queue-row")
    expect(queue).to_have_count(1)
    expect(queue.first).to_have_attribute("data-solution", str(solution.pk))
    badge = queue.first.get_by_test_id("reason-badge").filter(has_text="1 annotator")
    expect(badge).to_have_count(1)
    expect(queue.first).not_to_contain_text("Annotators agree")
    _shot(page, "truth-01-queue-one-annotator")

    # Its review page: "1 annotator" in the header, decisions say "1 annotator", not "agree".
    queue.first.click()
    page.wait_for_url(f"**/projects/{project.pk}/review/{solution.pk}*")
    review_steps = page.get_by_test_id("review-step")
    expect(review_steps).to_have_count(len(steps))
    state = page.get_by_test_id("review-state")
    expect(state).to_contain_text("1 annotator")
    expect(state).not_to_contain_text("agree")
    expect(page.get_by_test_id("decision-origin").first).to_have_text("1 annotator")
    # The human ≠ machine marks on steps 2 and 3, with the source named in the tooltip.
    for i, name in ((1, "LLM judge"), (2, "Process reward model")):
        mark = review_steps.nth(i).get_by_test_id("mark-machine")
        expect(mark).to_have_text("human ≠ machine")
        title = f"Human ≠ machine: {name} says −, annotators rated +"
        expect(mark).to_have_attribute("title", title)
    expect(page.get_by_test_id("mark-legend")).to_contain_text("human ≠ machine")
    marked = [
        i for i in range(len(steps)) if review_steps.nth(i).get_attribute("data-marked") == "true"
    ]
    assert 1 in marked and 2 in marked
    # The cursor starts on the first marked step; m walks the marked ones, wrapping around.
    expect(review_steps.nth(marked[0])).to_have_attribute("data-current", "true")
    for k in range(1, len(marked) + 1):
        page.keyboard.press("m")
        expect(review_steps.nth(marked[k % len(marked)])).to_have_attribute("data-current", "true")
    page.keyboard.press("M")
    expect(review_steps.nth(marked[-1])).to_have_attribute("data-current", "true")
    page.get_by_test_id("mark-machine").first.hover()
    _shot(page, "truth-02-review-marks")
    page.evaluate("window.scrollTo(0, 0)")
    _shot(page, "truth-02a-review-head")

    # The dashboard counts it under "1 annotator" and shows the annotator's own card.
    page.goto(f"{base}/projects/{project.pk}/dashboard")
    expect(page.get_by_test_id("coverage-counts")).to_contain_text("1 annotator")
    mine = page.locator("[data-testid=annotator-card][data-annotator=annotator]")
    expect(mine.get_by_test_id("annotator-submitted")).to_have_text("1")
    expect(mine.get_by_test_id("annotator-agreement")).to_have_text("no overlap")
    _shot(page, "truth-03-dashboard", full_page=True)
    page.close()
