"""Gold management: the gold list with annotators' accuracy, screening status per member, and
an admin's reset of a failed screening (a retake on unseen gold questions)."""

import pytest
from rest_framework.test import APIClient

from labeling.errors import ValidationFailed
from labeling.models import Annotation, ProjectMembership
from labeling.selectors.gold import gold_list
from labeling.services.gold.questions import screening_reset
from labeling.services.queue.claim import task_claim_next
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import member
from tests.review.test_gold_serving import _answer, _gold

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_gold_list_with_hand_counted_accuracy():
    project = ProjectFactory(gold_rate=1.0)
    SolutionFactory(problem__project=project, steps=2)  # regular work, not listed
    g1 = _gold(project, [1, -1, 1])  # gold first error: step 1
    g2 = _gold(project, [1, 1])  # no error
    a, b = member(project, "ann"), member(project, "bob")
    answers = {
        ("ann", g1.pk): [1, -1, -1],  # 2/3 steps, first error 1: right
        ("ann", g2.pk): [1, 1],  # 2/2, no error: right
        ("bob", g1.pk): [-1, -1, 1],  # 2/3, first error 0: wrong
    }
    for user in (a, b):
        while True:
            claim = task_claim_next(project=project, user=user)
            key = (user.username, claim.annotation.solution_id)
            if key not in answers:
                break
            _answer(claim, user, answers[key])
    rows = {r["solution_id"]: r for r in gold_list(project=project)}
    assert set(rows) == {g1.pk, g2.pk}
    r1 = rows[g1.pk]
    assert r1["ratings"] == [1, -1, 1] and r1["first_error"] == 1
    assert r1["answers"] == 2
    assert r1["step_accuracy"] == pytest.approx(4 / 6)
    assert r1["first_error_accuracy"] == 0.5
    by = {x["annotator"]: x for x in r1["annotators"]}
    assert by["ann"] == {
        "annotator": "ann",
        "steps": 3,
        "step_accuracy": pytest.approx(2 / 3),
        "first_error": 1,
        "first_error_correct": True,
    }
    assert by["bob"]["first_error"] == 0 and by["bob"]["first_error_correct"] is False
    r2 = rows[g2.pk]
    assert r2["first_error"] is None and r2["answers"] == 1
    assert r2["step_accuracy"] == 1.0 and r2["first_error_accuracy"] == 1.0


@pytest.fixture
def failed():
    """Screening of 2 on a project with 4 gold questions; 'weak' answered 2 wrongly."""
    project = ProjectFactory(screening_size=2, screening_pass_rate=0.8)
    SolutionFactory.create_batch(2, problem__project=project, steps=2)
    golds = [_gold(project, r) for r in ([1, -1], [1, -1], [1, 1], [1, 1])]
    user = member(project, "weak")
    first = []
    for _ in range(2):
        claim = task_claim_next(project=project, user=user)
        first.append(claim.annotation.solution_id)
        _answer(claim, user, [-1, 1])  # every step wrong
    assert task_claim_next(project=project, user=user) is None
    return project, golds, user, first


def test_reset_lets_the_member_retake_on_unseen_gold(failed):
    project, golds, user, first = failed
    membership = screening_reset(project=project, user_id=user.pk)
    assert membership.screening == "" and membership.screening_reset_at is not None
    served = []
    for _ in range(2):
        claim = task_claim_next(project=project, user=user)
        served.append(claim.annotation.solution_id)
        _answer(claim, user, [1, 1])  # both right this time
    assert set(served).isdisjoint(first) and set(served) <= {g.pk for g in golds}
    # Judged on the retake only (the failed answers no longer count): passed, regular work.
    claim = task_claim_next(project=project, user=user)
    assert claim is not None and claim.annotation.solution_id not in {g.pk for g in golds}
    assert ProjectMembership.objects.get(project=project, user=user).screening == "passed"


def test_a_failed_retake_blocks_again(failed):
    project, _, user, _ = failed
    screening_reset(project=project, user_id=user.pk)
    for _ in range(2):
        _answer(task_claim_next(project=project, user=user), user, [-1, -1])  # 1 of 4 right
    assert task_claim_next(project=project, user=user) is None
    assert ProjectMembership.objects.get(project=project, user=user).screening == "failed"


def test_reset_rules(failed):
    project, golds, user, _ = failed
    other = member(project, "fresh")
    with pytest.raises(ValidationFailed, match="has not failed"):
        screening_reset(project=project, user_id=other.pk)
    # Answered every gold question: nothing left to retake with.
    for gold in golds:
        if not Annotation.objects.filter(solution=gold, annotator=user).exists():
            Annotation.objects.create(solution=gold, annotator=user, status="discarded")
    with pytest.raises(ValidationFailed, match="every gold question"):
        screening_reset(project=project, user_id=user.pk)


def test_members_api_shows_screening_and_reset_through_the_api(failed):
    project, _, user, _ = failed
    admin = member(project, "boss", "admin")
    client = _client(admin)
    listed = client.get(f"/api/projects/{project.pk}/members/").json()["results"]
    members = {m["user"]["username"]: m for m in listed}
    assert members["weak"]["screening"] == "failed"
    assert members["weak"]["screening_answered"] == 2
    url = f"/api/projects/{project.pk}/members/{user.pk}/screening/reset/"
    res = client.post(url)
    assert res.status_code == 200, res.content
    assert res.json()["screening"] == "" and res.json()["screening_answered"] == 0
    progress = _client(user).get(f"/api/projects/{project.pk}/progress/").json()
    assert progress["screening"] == "pending"
    again = client.post(url)
    assert again.status_code == 400 and "has not failed" in again.json()["error"]["message"]
    assert _client(user).post(url).status_code == 403


def test_gold_list_api(failed):
    project, golds, _, first = failed
    admin = member(project, "boss", "admin")
    res = _client(admin).get(f"/api/projects/{project.pk}/gold/")
    assert res.status_code == 200
    body = {r["solution_id"]: r for r in res.json()["results"]}
    assert set(body) == {g.pk for g in golds}
    assert body[first[0]]["annotators"][0]["annotator"] == "weak"
    assert body[first[0]]["step_accuracy"] == 0.0


def test_project_settings_for_gold_and_review_through_the_api():
    project = ProjectFactory()
    client = _client(member(project, "boss", "admin"))
    body = {"gold_rate": 0.1, "screening_size": 30, "screening_pass_rate": 0.9}
    body["auto_resolve"] = True
    res = client.patch(f"/api/projects/{project.pk}/", body, format="json")
    assert res.status_code == 200, res.content
    assert {k: res.json()[k] for k in body} == body
    project.refresh_from_db()
    assert project.gold_rate == 0.1 and project.screening_size == 30
    assert project.screening_pass_rate == 0.9 and project.auto_resolve
    bad = client.patch(f"/api/projects/{project.pk}/", {"gold_rate": 1.5}, format="json")
    assert bad.status_code == 400


def test_schema_lists_the_gold_and_assignment_endpoints():
    schema = APIClient().get("/api/schema/").content
    for path in (
        b"/api/projects/{project_id}/gold/",
        b"/api/projects/{project_id}/members/{user_id}/screening/reset/",
        b"/api/projects/{project_id}/assignments/preview/",
        b"/api/projects/{project_id}/problem-sources/",
        b"GoldRow",
        b"AssignmentPreview",
    ):
        assert path in schema, path
