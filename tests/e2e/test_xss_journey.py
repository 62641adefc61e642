"""Hostile steps in real Chromium under the CSP: an annotator opens the labeling page and a
reviewer the review page of imported solutions whose problem, steps, answer and comments carry
script payloads (HTML, Markdown links, KaTeX \\href / \\url). Nothing runs: no dialog opens, no
payload's window flag is set, no injected element or handler exists, and the CSP reports no
violation (a violation would mean the sanitizer let something through that only the CSP
stopped).
"""

import io
import json

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from labeling.models import Project, ProjectMembership, Role, Solution
from labeling.services.imports import import_file
from labeling.services.labeling.annotations import annotation_submit
from labeling.services.queue.claim import task_claim_next
from labeling.services.review.comments import comment_create
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PAYLOADS = [
    '<img src=x onerror="window.__xss=1;alert(1)">',
    "<script>window.__xss=2;alert(2)</script>",
    "[click me](javascript:window.__xss=3)",
    "$\\href{javascript:window.__xss=4}{x}$ and $\\url{javascript:window.__xss=5}$",
    '<svg onload="window.__xss=6"><circle r=5 /></svg>',
    '<iframe srcdoc="<script>parent.__xss=7</script>"></iframe>',
    '<a href="javascript:window.__xss=8">link</a>',
    '<form action="javascript:1"><button>b</button></form>',
    '<div style="background:url(javascript:window.__xss=9)">bg</div>',
    '<div onmouseover="window.__xss=10">hover</div>',
    "```html\n<script>window.__xss=11</script>\n```",
]
WATCH = """
window.__xss = 0;
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(e.violatedDirective + ' ' + e.blockedURI);
});
"""
INJECTED = (
    "script:not([src]), iframe, object, embed, [onerror], [onload], [onmouseover], "
    "a[href^='javascript'], form[action^='javascript']"
)


def _project() -> Project:
    project = Project.objects.create(name="Hostile")
    line = {
        "problem": "Solve it. " + " ".join(PAYLOADS),
        "answer": PAYLOADS[0],
        "steps": [f"Step {i}: {p}" for i, p in enumerate(PAYLOADS, 1)],
    }
    import_file(
        project=project,
        path=io.BytesIO((json.dumps(line) + "\n").encode()),
        fmt="steplab",
        filename="hostile.jsonl",
    )
    return project


def _member(project: Project, name: str, role: str):
    user = get_user_model().objects.create_user(username=name, password=f"steplab-{name}")
    ProjectMembership.objects.create(project=project, user=user, role=role)
    return user


def _assert_nothing_ran(page, dialogs: list[str], name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"xss-{name}.png"), full_page=True)
    page.mouse.move(300, 300)
    page.wait_for_timeout(300)  # let any onerror/onload fire
    assert dialogs == []
    assert page.evaluate("window.__xss") == 0
    # Chromium reports inline handlers met while DOMPurify parses the HTML with DOMParser (an
    # inert document: they never run) as script-src-attr violations; so those are not counted
    # here, and instead no element of the live page may carry an on* attribute.
    violations = [v for v in page.evaluate("window.__csp") if not v.startswith("script-src-attr")]
    assert violations == [], "\n".join(violations)
    handlers = page.evaluate(
        "[...document.querySelectorAll('*')].flatMap(e => [...e.attributes]"
        ".filter(a => /^on/i.test(a.name)).map(a => e.tagName + '[' + a.name + ']'))"
    )
    assert handlers == []
    assert page.locator(INJECTED).count() == 0
    assert page.locator("#root script").count() == 0


def test_hostile_steps_run_nothing_on_the_labeling_and_review_pages(live_server, browser):
    project = _project()
    solution = Solution.objects.get(project=project)
    annotator = _member(project, "ann", Role.ANNOTATOR)
    _member(project, "rev", Role.REVIEWER)

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.add_init_script(WATCH)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    login(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    expect(rows).to_have_count(len(PAYLOADS))
    expect(rows.nth(2)).to_contain_text("click me")  # rendered as text, not run
    _assert_nothing_ran(page, dialogs, "label")

    claim = task_claim_next(project=project, user=annotator)
    steps = list(solution.steps.order_by("index").values_list("id", flat=True))
    annotation_submit(
        annotation=claim.annotation,
        user=annotator,
        version=claim.annotation.version,
        labels=[{"step_id": s, "rating": 1, "comment": PAYLOADS[i]} for i, s in enumerate(steps)],
    )
    for i, payload in enumerate(PAYLOADS[:4]):
        comment_create(solution=solution, author=annotator, body=payload, step_id=steps[i])
    comment_create(solution=solution, author=annotator, body=PAYLOADS[1])

    review = browser.new_page(viewport={"width": 1400, "height": 1000})
    review.add_init_script(WATCH)
    review_dialogs: list[str] = []
    review.on("dialog", lambda d: (review_dialogs.append(d.message), d.dismiss()))
    login(review, live_server.url, "rev")
    review.goto(f"{live_server.url}/projects/{project.pk}/review/{solution.pk}")
    expect(review.get_by_text("Solve it.").first).to_be_visible()
    _assert_nothing_ran(review, review_dialogs, "review")
