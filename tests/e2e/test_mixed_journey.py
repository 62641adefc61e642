"""A many-domains project in real Chromium: a math problem then a text problem in one
project, each rendered by its own domain (KaTeX for math, plain prose for text), then the
dashboard's per-domain table and the review queue's domain filter."""

import json

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Annotation, AnnotationStatus, ProjectMembership, Role
from labeling.services.imports import import_file
from labeling.services.projects.edit import project_create
from tests.e2e.helpers import login, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROWS = [
    {
        "id": "mx-math",
        "domain": "math",
        "problem": "Solve $x^2 = 16$ for $x > 0$.",
        "answer": "4",
        "steps": ["Take square roots: $x = \\pm\\sqrt{16} = \\pm 4$.", "Since $x > 0$, $x = 4$."],
    },
    {
        "id": "mx-text",
        "domain": "text",
        "problem": "Translate into French: *The bread costs $5 and the cheese $10.*",
        "answer": "",
        "steps": ["Le pain coûte $5", "et le fromage coûte $10."],
    },
]


def _shot(name: str):
    from tests.e2e.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"


def _label(page, base: str, project_id: int, keys_by_domain: dict[str, str], shots: str = ""):
    """Label the two tasks the queue serves (math first, it has the lower id)."""
    page.goto(f"{base}/projects/{project_id}/label")
    for domain in ("math", "text"):
        tag = page.get_by_test_id("problem-domain")
        expect(tag).to_have_attribute("data-domain", domain)
        rows = page.get_by_test_id("step-row")
        expect(rows).to_have_count(2)
        expect(rows.first).to_have_attribute("data-domain", domain)
        if domain == "math":
            expect(tag).to_have_text("Math")
            expect(rows.first.locator(".katex")).to_have_count(1)  # typeset
            expect(page.locator(".problem-text .katex")).to_have_count(2)
        else:
            expect(tag).to_have_text("Text tasks")
            # Prose: the dollars stay currency, nothing typeset.
            expect(page.locator(".steps .katex, .problem-text .katex")).to_have_count(0)
            expect(rows.nth(0)).to_contain_text("Le pain coûte $5")
            expect(page.locator(".problem-text")).to_contain_text("costs $5 and the cheese $10")
        if shots:
            page.screenshot(path=str(_shot(f"{shots}-{domain}")), full_page=True)
        for key in keys_by_domain[domain]:
            page.keyboard.press(key)
        page.keyboard.press("Enter")
        if domain == "math":
            expect(page.get_by_test_id("problem-domain")).to_have_attribute("data-domain", "text")


def test_one_project_renders_each_problem_by_its_domain(live_server, browser, tmp_path):
    call_command("load_demo")  # the demo users
    project = project_create(created_by=None, name="Many domains journey", domain="mixed")
    project.overlap = 2
    project.save(update_fields=["overlap"])
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    for name, role in (("annotator", Role.ANNOTATOR), ("annotator2", Role.ANNOTATOR)):
        ProjectMembership.objects.create(project=project, user=users.get(username=name), role=role)
    ProjectMembership.objects.create(
        project=project, user=users.get(username="reviewer"), role=Role.REVIEWER
    )
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    import_file(project=project, path=path, fmt="steplab", labels_as="none")

    base = live_server.url
    one = browser.new_page(viewport={"width": 1400, "height": 900})
    login(one, base, "annotator", "steplab-annotator")
    _label(one, base, project.pk, {"math": "33", "text": "33"}, shots="mixed-01")
    two = browser.new_page(viewport={"width": 1400, "height": 900})
    login(two, base, "annotator2", "steplab-annotator2")
    _label(two, base, project.pk, {"math": "33", "text": "31"})  # they differ on the text
    submitted = Annotation.objects.filter(
        solution__project=project, status=AnnotationStatus.SUBMITTED
    )
    wait_for(lambda: submitted.count() == 4)

    reviewer = browser.new_page(viewport={"width": 1400, "height": 1000})
    login(reviewer, base, "reviewer", "steplab-reviewer")
    reviewer.goto(f"{base}/projects/{project.pk}/dashboard")
    table = reviewer.get_by_test_id("domain-table")
    expect(table).to_be_visible()
    math = table.locator('[data-testid="domain-row"][data-domain="math"]')
    text = table.locator('[data-testid="domain-row"][data-domain="text"]')
    expect(math).to_contain_text("Math")
    expect(math.locator("td").nth(3)).to_contain_text("1 (100%)")  # done: overlap reached
    expect(math.locator("td").nth(7)).to_have_text("100%")  # step agreement
    expect(text.locator("td").nth(7)).to_have_text("50%")  # they differ on one of two steps
    table.scroll_into_view_if_needed()
    reviewer.screenshot(path=str(_shot("mixed-02-dashboard")), full_page=True)

    reviewer.goto(f"{base}/projects/{project.pk}/review")
    items = reviewer.get_by_test_id("queue-domain")
    expect(items).to_have_count(2)
    reviewer.get_by_test_id("filter-domain").select_option("text")
    expect(reviewer.get_by_test_id("queue-domain")).to_have_count(1)
    expect(reviewer.get_by_test_id("queue-domain")).to_have_text("Text tasks")
    assert "domain=text" in reviewer.url
    reviewer.screenshot(path=str(_shot("mixed-03-review-queue")), full_page=True)

    # The review page renders the text problem as prose too, beside both annotators' ratings.
    reviewer.get_by_test_id("review-first").click()
    expect(reviewer.get_by_test_id("problem-domain")).to_have_attribute("data-domain", "text")
    expect(reviewer.get_by_test_id("review-step")).to_have_count(2)
    expect(reviewer.get_by_test_id("review-step").first).to_contain_text("Le pain coûte $5")
    expect(reviewer.locator(".katex")).to_have_count(0)
    reviewer.screenshot(path=str(_shot("mixed-04-review-text")), full_page=True)
