"""GET /api/projects/{id}/rejections/?rework=draft: every rejection the annotator still has to
rework, however many, a page at a time (the labeling page read only the newest 50 of all)."""

import pytest
from rest_framework.test import APIClient

from labeling.models import Annotation, AnnotationStatus
from labeling.services.review.actions import review_reject
from tests.factories import AnnotationFactory, ProjectFactory, SolutionFactory
from tests.review.conftest import member

pytestmark = pytest.mark.django_db

TO_REWORK = 57
REWORKED = 5


@pytest.fixture
def rejected():
    project = ProjectFactory()
    annotator = member(project, "ann")
    reviewer = member(project, "rev", role="reviewer")
    reworks = []
    for i in range(TO_REWORK + REWORKED):
        solution = SolutionFactory(problem__project=project, steps=1, submitted_count=1)
        submitted = AnnotationFactory(
            solution=solution, annotator=annotator, status=AnnotationStatus.SUBMITTED
        )
        reworks.append(review_reject(annotation=submitted, reviewer=reviewer, comment=f"fix {i}"))
    # The oldest few were reworked and submitted again: nothing left to do for them.
    done = [r.pk for r in reworks[:REWORKED]]
    Annotation.objects.filter(pk__in=done).update(status=AnnotationStatus.SUBMITTED)
    client = APIClient()
    client.force_authenticate(annotator)
    other = member(project, "other")
    return {"project": project, "client": client, "done": set(done), "other": other}


def test_every_rejection_still_to_rework_comes_page_by_page(rejected):
    url = f"/api/projects/{rejected['project'].pk}/rejections/"
    client = rejected["client"]
    assert client.get(url).json()["count"] == TO_REWORK + REWORKED
    seen, page = [], client.get(url, {"rework": "draft", "limit": 20})
    while True:
        assert page.status_code == 200, page.content
        body = page.json()
        assert body["count"] == TO_REWORK
        seen += body["results"]
        if body["next"] is None:
            break
        page = client.get(body["next"])
    assert len(seen) == TO_REWORK == len({r["id"] for r in seen})
    assert all(r["rework_status"] == "draft" for r in seen)
    assert not {r["rework_id"] for r in seen} & rejected["done"]
    assert [r["id"] for r in seen] == sorted((r["id"] for r in seen), reverse=True)


def test_rework_filter_is_the_callers_own_and_refuses_other_values(rejected):
    url = f"/api/projects/{rejected['project'].pk}/rejections/"
    other = APIClient()
    other.force_authenticate(rejected["other"])
    assert other.get(url, {"rework": "draft"}).json()["count"] == 0
    for bad in ("submitted", "DRAFT", "draft" * 1000, "1"):
        res = rejected["client"].get(url, {"rework": bad})
        assert res.status_code == 400, (bad, res.content)
        assert res.json()["error"]["code"] == "validation_error"
