"""What the browser journeys share: signing in, waiting on the database."""

import time
from collections.abc import Callable
from typing import Any


def login(page: Any, base_url: str, username: str, password: str | None = None) -> None:
    """Sign in through the login form (demo users' passwords are `steplab-<username>`)."""
    page.goto(f"{base_url}/login")
    page.get_by_test_id("login-username").fill(username)
    page.get_by_test_id("login-password").fill(password or f"steplab-{username}")
    page.get_by_test_id("login-submit").click()
    page.wait_for_url(f"{base_url}/projects")


def wait_for(
    predicate: Callable[[], Any], timeout: float = 10.0, pause: Callable[[float], Any] = time.sleep
) -> Any:
    """Poll `predicate` (e.g. a database query) until it returns something truthy. Pass
    `pause=pause_in(page)` while a Playwright route handler must run meanwhile (a sleep would
    block it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        pause(0.1)
    raise AssertionError("condition not met in time")


def pause_in(page: Any) -> Callable[[float], None]:
    """A pause that waits through Playwright (its event loop runs route handlers meanwhile)."""
    return lambda seconds: page.wait_for_timeout(seconds * 1000)


DEMO_LABELING = "Demo: step labeling"


def open_demo_label_page(page: Any, base_url: str) -> tuple[Any, Any]:
    """The demo projects loaded, the demo annotator signed in on the step-labeling project's
    label page: its step rows (the first one visible) and the draft annotation it claimed."""
    from django.core.management import call_command

    from labeling.models import Annotation, AnnotationStatus, Project

    call_command("load_demo")
    project = Project.objects.get(name=DEMO_LABELING)
    login(page, base_url, "annotator")
    page.goto(f"{base_url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    rows.first.wait_for(state="visible")
    annotation = Annotation.objects.get(
        annotator__username="annotator", status=AnnotationStatus.DRAFT
    )
    return rows, annotation


def first_rating(annotation_id: int) -> int | None:
    """The server's rating of the annotation's first step (None: not saved yet)."""
    from labeling.models import Annotation

    label = Annotation.objects.get(pk=annotation_id).labels.filter(step__index=0).first()
    return None if label is None else label.rating


# For each rendered row whose text shows at the height of one of its rating buttons, the button
# itself must be what a click there reaches (not the find bar, a header or a panel).
_COVERED_JS = """([rowSelector, buttonSelector]) => {
  const covered = [];
  for (const row of document.querySelectorAll(rowSelector)) {
    const rect = row.getBoundingClientRect();
    for (const button of row.querySelectorAll(buttonSelector)) {
      const b = button.getBoundingClientRect();
      const y = b.top + b.height / 2;
      if (b.height === 0 || y <= 0 || y >= window.innerHeight) continue;
      const text = document.elementFromPoint(rect.left + 24, y);
      if (!text || !row.contains(text)) continue;  // the row itself is out of sight there
      const hit = document.elementFromPoint(b.left + b.width / 2, y);
      if (!hit || !button.contains(hit)) {
        covered.push([row.getAttribute("aria-posinset") || row.dataset.index,
                      button.textContent, hit ? String(hit.className || hit.tagName) : null]);
      }
    }
  }
  return covered;
}"""


def buttons_covered(page, row_selector: str, button_selector: str = ".rating-btn") -> list:
    """[row, button, what covers it] for every rating button hidden under something while its
    row's text shows beside it (the find bar did that to the row that scrolled beneath it)."""
    return page.evaluate(_COVERED_JS, [row_selector, button_selector])
