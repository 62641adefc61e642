"""The evidence-cited demo project in real Chromium: citation checks, cited passages and cells
beside the steps, the sources panel, and the supported / unsupported / wrong scale."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from autolabel.models import AutolabelRun, RunStatus
from labeling.management.commands.load_demo import EVIDENCE_PROJECT
from labeling.models import Annotation, AnnotationStatus, Project, Suggestion
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _shot(name: str) -> str:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return str(SCREENSHOTS / f"{name}.png")


def _ratings(external_id: str) -> list[int | None]:
    done = Annotation.objects.get(
        solution__external_id=external_id, status=AnnotationStatus.SUBMITTED
    )
    return list(done.labels.order_by("step__index").values_list("rating", flat=True))


def test_evidence_project_checks_citations_and_labels_steps(
    live_server, browser, celery_worker_live
):
    call_command("load_demo")
    project = Project.objects.get(name=EVIDENCE_PROJECT)

    admin = browser.new_page(viewport={"width": 1400, "height": 900})
    login(admin, live_server.url, "admin", "steplab-admin")
    card = admin.get_by_test_id("project-card").filter(has_text=EVIDENCE_PROJECT)
    expect(card.get_by_test_id("project-domain")).to_have_text("Evidence-cited")
    admin.goto(f"{live_server.url}/projects/{project.pk}")
    admin.get_by_role("tab", name="Auto-label").click()
    expect(admin.get_by_test_id("autolabel-source-citation")).to_be_visible()
    expect(admin.get_by_test_id("autolabel-source-symbolic")).to_have_count(0)
    admin.get_by_test_id("autolabel-source-citation").check()
    admin.get_by_test_id("autolabel-start").click()
    expect(admin.get_by_test_id("autolabel-progress")).to_have_attribute(
        "data-status", "done", timeout=60000
    )
    admin.screenshot(path=_shot("evidence-01-autolabel"), full_page=True)
    assert AutolabelRun.objects.get(project=project).status == RunStatus.DONE
    # The checker's verdicts on the written rows: the two copied-wrong numbers and the
    # misquote are −1; everything else that cites checks out (evidence, no rating).
    wrong = set(
        Suggestion.objects.filter(
            step__solution__project=project, source="citation", value=-1
        ).values_list("step__solution__external_id", "step__index")
    )
    assert wrong == {
        ("evidence-demo-med-2", 1),
        ("evidence-demo-fin-1", 1),
        ("evidence-demo-fin-1", 3),
    }

    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    login(page, live_server.url, "annotator", "steplab-annotator")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    expect(rows).to_have_count(4)
    # The quote is marked in its document's context, the cells in their table.
    expect(rows.nth(0).get_by_test_id("cited-passage")).to_have_text(
        "we randomly assigned 412 adults aged 65 years or older"
    )
    expect(rows.nth(1).get_by_test_id("cited-cell")).to_have_text(["-1.4", "-1.1"])
    # The sources panel lists the trial abstract and the outcomes table.
    panel = page.get_by_test_id("sources-panel")
    expect(panel.get_by_test_id("source-tab")).to_have_text(
        ["Trial abstract (semaglutide vs glargine, age 65+)", "Table 2. Outcomes at week 24"]
    )
    expect(panel.get_by_test_id("marked-passage").first).to_be_visible()
    # Opening step 4's citation shows its passage in the panel: it says the opposite.
    rows.nth(3).get_by_test_id("cite-open").click()
    expect(panel.get_by_test_id("focused-passage")).to_have_text(
        "Gastrointestinal adverse events were more frequent with semaglutide"
    )
    checks = rows.nth(3).locator('[data-testid="evidence-chip"][data-source="citation"]')
    expect(checks).to_have_count(1)
    expect(checks).to_contain_text("citations check out")
    # The scale reads supported / unsupported / wrong, on the buttons and in the help.
    for name in ("Supported, step 1", "Unsupported, step 1", "Wrong, step 1"):
        expect(rows.nth(0).get_by_role("button", name=name, exact=True)).to_be_visible()
    page.screenshot(path=_shot("evidence-02-label-page"))
    rows.nth(1).get_by_role("button", name="Wrong, step 2").hover()
    page.keyboard.press("?")
    overlay = page.get_by_test_id("shortcuts-overlay")
    expect(overlay).to_contain_text("Unsupported (0)")
    expect(overlay).to_contain_text("Supported (+1)")
    page.screenshot(path=_shot("evidence-03-shortcuts"))
    page.keyboard.press("Escape")

    # Browsing the sources with the mouse keeps the keys on the steps.
    panel.get_by_test_id("source-tab").nth(1).click()
    expect(panel.get_by_role("table")).to_contain_text("Discontinued for adverse events")
    for key in ["3", "3", "3", "1"]:
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    expect(rows.nth(0)).to_have_attribute("data-rating", "")
    assert _ratings("evidence-demo-med-1") == [1, 1, 1, -1]

    # The second solution: the checker flags the copied-wrong percentage beside its cells.
    expect(rows.nth(1)).to_contain_text("2.5% with glargine")
    flagged = rows.nth(1).locator('[data-testid="suggestion-chip"][data-source="citation"]')
    expect(flagged).to_have_count(1)
    expect(rows.nth(1).get_by_test_id("cited-cell")).to_have_text(["9 (4.3%)", "3 (1.5%)"])
    page.screenshot(path=_shot("evidence-04-number-mismatch"))
    for key in ["3", "1", "2", "3"]:
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    expect(rows.nth(0)).to_have_attribute("data-rating", "")
    assert _ratings("evidence-demo-med-2") == [1, -1, 0, 1]

    # The third: a quote the annual report does not contain is marked as such.
    expect(rows.nth(3).get_by_test_id("quote-missing")).to_be_visible()
    rows.nth(1).get_by_test_id("cite-open").click()
    expect(panel.get_by_test_id("cited-cell")).to_have_text(["$2,905", "$2,611"])
    page.screenshot(path=_shot("evidence-05-quote-missing"), full_page=True)

    # The reviewer sees the same cited passages and cells under the steps, with the same words.
    first = Annotation.objects.get(
        solution__external_id="evidence-demo-med-1", status=AnnotationStatus.SUBMITTED
    )
    admin.goto(f"{live_server.url}/projects/{project.pk}/review/{first.solution_id}")
    expect(admin.get_by_test_id("cited-passage").first).to_have_text(
        "we randomly assigned 412 adults aged 65 years or older"
    )
    expect(admin.get_by_test_id("cited-cell")).to_have_count(2)
    expect(admin.get_by_role("button", name="Supported, step 1", exact=True)).to_be_visible()
    admin.screenshot(path=_shot("evidence-06-review"), full_page=True)
    admin.keyboard.press("?")
    expect(admin.get_by_test_id("shortcuts-overlay")).to_contain_text("Unsupported (0)")
