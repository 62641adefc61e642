"""A many-domains project end to end on the server: the task and review payloads carry the
problem's domain, auto-label runs each source only on its domains' problems, the metrics
report progress and agreement per domain, the review queue filters by domain."""

import pytest
from rest_framework.test import APIClient

from autolabel.engines.base import EngineResult, StepSuggestion
from autolabel.models import AutolabelItem
from autolabel.registry import ENGINES
from autolabel.services import autolabel_item_process, autolabel_run_create
from labeling.errors import ValidationFailed
from labeling.metrics.domains import per_domain
from labeling.models import DOMAIN_SOURCES, Suggestion
from labeling.services.projects.metrics import metrics_get
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory
from tests.review.test_review_queue import submitted

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def mixed(db):
    project = ProjectFactory(domain="mixed", overlap=2)
    math = SolutionFactory(problem__project=project, problem__domain="math", steps=2)
    text = SolutionFactory(
        problem__project=project,
        problem__domain="text",
        problem__text="Translate: it costs $5 and $10.",
        steps=["Cela coûte 5 $ et 10 $."],
    )
    agent = SolutionFactory(problem__project=project, problem__domain="agent", steps=2)
    users = {}
    for name, role in (("ann", "annotator"), ("ann2", "annotator"), ("rev", "reviewer")):
        users[name] = UserFactory(username=f"mx-{name}")
        MembershipFactory(project=project, user=users[name], role=role)
    return {"project": project, "math": math, "text": text, "agent": agent, **users}


def test_the_claim_payload_carries_each_problems_domain(mixed):
    client = _client(mixed["ann"])
    url = f"/api/projects/{mixed['project'].pk}/queue/next/"
    seen = []
    for _ in range(3):
        task = client.post(url).json()
        seen.append((task["solution"]["id"], task["problem"]["domain"], task["project"]["domain"]))
        body = {
            "version": task["annotation"]["version"],
            "labels": [{"step_id": s["id"], "rating": 1} for s in task["solution"]["steps"]],
        }
        done = client.post(f"/api/annotations/{task['annotation']['id']}/submit/", body, "json")
        assert done.status_code == 200, done.content
    assert seen == [
        (mixed["math"].pk, "math", "mixed"),
        (mixed["text"].pk, "text", "mixed"),
        (mixed["agent"].pk, "agent", "mixed"),
    ]
    review = _client(mixed["rev"]).get(f"/api/solutions/{mixed['text'].pk}/review/").json()
    assert (review["problem"]["domain"], review["project"]["domain"]) == ("text", "mixed")


def test_a_project_of_one_domain_gives_its_problems_its_domain():
    project = ProjectFactory(domain="code")
    solution = SolutionFactory(problem__project=project, steps=1)
    user = UserFactory()
    MembershipFactory(project=project, user=user, role="annotator")
    task = _client(user).post(f"/api/projects/{project.pk}/queue/next/").json()
    assert task["solution"]["id"] == solution.pk and task["problem"]["domain"] == "code"


JUDGE = {"judge": {"backend": {"kind": "scripted", "default": 1.0}}}  # every domain has it


def _recording(source: str, calls: list):
    def engine(data, params):
        calls.append((source, data.problem))
        return EngineResult(source, "test", [StepSuggestion(0, 1, 0.9)])

    return engine


def test_autolabel_runs_each_source_only_on_its_domains_problems(mixed, monkeypatch):
    project = mixed["project"]
    assert {"answer", "symbolic", "agent", "code", "judge"} <= set(project.domain_sources)
    calls: list = []
    for source in ("answer", "agent", "judge"):
        monkeypatch.setitem(ENGINES, source, _recording(source, calls))
    run = autolabel_run_create(project=project, sources=["answer", "agent"])
    # The text problem has neither source: it is not part of the run at all.
    items = set(AutolabelItem.objects.filter(run=run).values_list("solution_id", flat=True))
    assert items == {mixed["math"].pk, mixed["agent"].pk}
    for solution_id in sorted(items):
        autolabel_item_process(run=run, solution_id=solution_id)
    assert sorted(calls) == sorted(
        [("answer", mixed["math"].problem.text), ("agent", mixed["agent"].problem.text)]
    )
    written = set(Suggestion.objects.values_list("step__solution_id", "source"))
    assert written == {(mixed["math"].pk, "answer"), (mixed["agent"].pk, "agent")}

    calls.clear()
    judged = autolabel_run_create(project=project, sources=["judge"], params=JUDGE)
    for item in AutolabelItem.objects.filter(run=judged):
        autolabel_item_process(run=judged, solution_id=item.solution_id)
    assert len(calls) == 3


def test_a_problem_without_a_domain_gets_only_the_sources_every_domain_has(mixed, monkeypatch):
    bare = SolutionFactory(problem__project=mixed["project"], steps=1)  # domain ""
    calls: list = []
    for source in ("answer", "judge"):
        monkeypatch.setitem(ENGINES, source, _recording(source, calls))
    run = autolabel_run_create(project=mixed["project"], sources=["answer", "judge"], params=JUDGE)
    autolabel_item_process(run=run, solution_id=bare.pk)
    assert calls == [("judge", bare.problem.text)]
    assert set(DOMAIN_SOURCES["text"]) >= {"judge"}


def test_a_source_of_no_domain_is_still_refused(mixed):
    with pytest.raises(ValidationFailed):
        autolabel_run_create(project=mixed["project"], sources=["no-such-source"])


def test_metrics_report_progress_and_agreement_per_domain(mixed):
    a, b = mixed["ann"], mixed["ann2"]
    submitted(mixed["math"], a, [1, -1])
    submitted(mixed["math"], b, [1, -1])  # the two agree on math
    submitted(mixed["text"], a, [1])
    submitted(mixed["text"], b, [-1])  # and disagree on the translation
    for solution, n in ((mixed["math"], 2), (mixed["text"], 2)):
        type(solution).objects.filter(pk=solution.pk).update(submitted_count=n)
    rows = {r["domain"]: r for r in per_domain(mixed["project"])}
    assert set(rows) == {"agent", "math", "text"}
    assert rows["math"]["solutions"] == rows["text"]["solutions"] == 1
    assert (rows["math"]["done"], rows["math"]["progress"]) == (1, 1.0)
    assert (rows["agent"]["done"], rows["agent"]["progress"], rows["agent"]["annotations"]) == (
        0,
        0.0,
        0,
    )
    assert rows["math"]["annotations"] == rows["text"]["annotations"] == 2
    assert rows["math"]["rated_steps"] == 2 and rows["text"]["rated_steps"] == 1
    assert rows["math"]["pairwise_agreement"] == 1.0
    assert rows["text"]["pairwise_agreement"] == 0.0
    assert rows["math"]["first_error_alpha"] is None or rows["math"]["first_error_alpha"] >= 0.99
    answer = metrics_get(project=mixed["project"])
    assert [r["domain"] for r in answer.data["domains"]] == ["agent", "math", "text"]
    body = _client(mixed["rev"]).get(f"/api/projects/{mixed['project'].pk}/metrics/").json()
    assert [r["domain"] for r in body["domains"]] == ["agent", "math", "text"]
    assert metrics_get(project=ProjectFactory()).data["domains"] == []


def test_the_review_queue_filters_by_domain(mixed):
    for key in ("math", "text"):
        submitted(mixed[key], mixed["ann"], [1] * mixed[key].steps.count())
    client = _client(mixed["rev"])
    url = f"/api/projects/{mixed['project'].pk}/review/queue/"
    every = client.get(url).json()["results"]
    assert {(r["id"], r["problem_domain"]) for r in every} == {
        (mixed["math"].pk, "math"),
        (mixed["text"].pk, "text"),
    }
    only = client.get(url, {"domain": "text"}).json()["results"]
    assert [r["id"] for r in only] == [mixed["text"].pk]
    assert client.get(url, {"domain": "poetry"}).status_code == 400


def test_a_domain_change_keeps_each_problems_domain():
    from labeling.models import problem_domain
    from labeling.services.projects.edit import project_update

    project = ProjectFactory(domain="text")
    SolutionFactory(problem__project=project, steps=1)  # domain "" = the project's
    project_update(project=project, domain="mixed")
    # Nothing written over the problems: a blank one is of the project's default.
    assert list(project.problems.values_list("domain", flat=True)) == [""]
    assert problem_domain("", project) == "text"
    SolutionFactory(problem__project=project, problem__domain="math", steps=1)
    with pytest.raises(ValidationFailed, match="1 problems name another domain"):
        project_update(project=project, domain="text")
    project.refresh_from_db()
    assert project.domain == "mixed"
    project.problems.filter(domain="math").delete()
    project_update(project=project, domain="text")
    assert list(project.problems.values_list("domain", flat=True)) == [""]
