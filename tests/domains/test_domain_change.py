"""A project's domain change writes no problem, whatever the project's size: a problem that
names no domain is of the project's default (`Project.blank_domain` in a many-domains project
that was of one domain), which every reader applies (labeling.services.projects.domain_change).
Each reader of a blank problem is checked before and after the change, and leaving
many-domains is refused by index probes while problems cannot follow."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from autolabel.models import AutolabelItem
from autolabel.services import autolabel_run_create
from labeling import tasks
from labeling.errors import ValidationFailed
from labeling.exporters.options import Filters
from labeling.exporters.selection import candidate_solutions
from labeling.metrics.domains import per_domain
from labeling.models import OutboxMessage, Problem, Project, Solution
from labeling.services.projects.edit import project_update
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db


def _client(project: Project, role: str) -> APIClient:
    user = UserFactory()
    MembershipFactory(project=project, user=user, role=role)
    client = APIClient()
    client.force_authenticate(user)
    return client


def _project(n: int, domain: str = "math") -> Project:
    project = ProjectFactory(domain=domain)
    for _ in range(n):
        SolutionFactory(problem__project=project, steps=1)  # domain "" : the project's
    return project


def _blank(project: Project) -> bool:
    """Every problem of the project still names no domain (the change wrote none)."""
    return not project.problems.exclude(domain="").exists()


def _patch(project: Project, client: APIClient, domain: str) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = client.patch(f"/api/projects/{project.pk}/", {"domain": domain}, "json")
    return response.status_code, [q["sql"] for q in queries]


@pytest.mark.parametrize("path", [("math", "mixed"), ("math", "mixed", "math")])
def test_the_request_writes_no_problem_and_its_statements_do_not_grow(path):
    answers = []
    for n in (10, 200):
        project = _project(n, path[0])
        client = _client(project, "admin")
        if len(path) == 3:  # a few problems naming the new domain, as a mixed import leaves
            project_update(project=project, domain="mixed")
            for problem in project.problems.all()[:3]:
                Problem.objects.filter(pk=problem.pk).update(domain="math")
        status, sql = _patch(project, client, path[-1])
        assert status == 200
        assert not [s for s in sql if 'UPDATE "labeling_problem"' in s]  # was one over all
        # Nor a COUNT over the domains (the response's stats count the project, as on any
        # PATCH: a large project reads them from its metrics snapshot).
        assert not [s for s in sql if "COUNT(" in s.upper() and '"domain"' in s]
        answers.append(len(sql))
    assert answers[0] == answers[1]


def test_becoming_many_domains_keeps_blank_problems_of_the_old_domain():
    project = _project(2)
    project_update(project=project, domain="mixed")
    project.refresh_from_db()
    assert (project.domain, project.blank_domain) == ("mixed", "math")
    assert _blank(project)
    text = SolutionFactory(problem__project=project, problem__domain="text", steps=1)
    # Rendering and checking: the task and review payloads carry the effective domain.
    annotator = _client(project, "annotator")
    seen = set()
    for _ in range(3):
        task = annotator.post(f"/api/projects/{project.pk}/queue/next/").json()
        seen.add((task["solution"]["id"] == text.pk, task["problem"]["domain"]))
        body = {
            "version": task["annotation"]["version"],
            "labels": [{"step_id": s["id"], "rating": 1} for s in task["solution"]["steps"]],
        }
        done = annotator.post(f"/api/annotations/{task['annotation']['id']}/submit/", body, "json")
        assert done.status_code == 200, done.content
    assert seen == {(False, "math"), (True, "text")}
    blank = Solution.objects.filter(project=project, problem__domain="").first()
    reviewer = _client(project, "reviewer")
    detail = reviewer.get(f"/api/solutions/{blank.pk}/review/").json()
    assert detail["problem"]["domain"] == "math"
    # The review queue's filter and items (each solution submitted once, above).
    url = f"/api/projects/{project.pk}/review/queue/"
    items = reviewer.get(url, {"domain": "math"}).json()["results"]
    assert sorted((r["id"], r["problem_domain"]) for r in items) == [
        (s.pk, "math") for s in Solution.objects.filter(project=project, problem__domain="")
    ]
    # Exports: the filter, and the row's domain column (Format.domain_of).
    exported = candidate_solutions(project=project, filters=Filters(domains=("math",)))
    assert sorted(exported.values_list("pk", flat=True)) == sorted(
        Solution.objects.filter(project=project, problem__domain="").values_list("pk", flat=True)
    )
    # Metrics per domain: the blank problems are counted as math, not as a domain of "".
    rows = {r["domain"]: r for r in per_domain(project)}
    assert set(rows) == {"math", "text"}
    assert (rows["math"]["problems"], rows["math"]["annotations"]) == (2, 2)
    assert (rows["text"]["problems"], rows["text"]["annotations"]) == (1, 1)


def test_auto_label_runs_apply_the_old_domains_sources_to_blank_problems():
    project = _project(1)
    project_update(project=project, domain="mixed")
    assert _blank(project)
    text = SolutionFactory(problem__project=project, problem__domain="text", steps=1)
    blank = Solution.objects.get(project=project, problem__domain="")
    run = autolabel_run_create(project=project, sources=["answer"])  # a math source
    items = set(AutolabelItem.objects.filter(run=run).values_list("solution_id", flat=True))
    assert items == {blank.pk}
    assert text.pk not in items
    from autolabel.run_chunks import sources_for

    assert sources_for(run, blank) == ["answer"]


def test_leaving_many_domains_is_refused_while_problems_cannot_follow(monkeypatch):
    from labeling.services.projects import domain_change

    project = _project(2)
    project_update(project=project, domain="mixed")
    for _ in range(5):
        SolutionFactory(problem__project=project, problem__domain="code", steps=1)
    monkeypatch.setattr(domain_change, "COUNT_CAP", 3)
    with pytest.raises(ValidationFailed, match="3\\+ problems name another domain"):
        project_update(project=project, domain="math")
    project.refresh_from_db()
    project.problems.filter(domain="code").delete()
    # The blank problems are math: a text project cannot hold them.
    with pytest.raises(ValidationFailed, match="2 problems are 'math'"):
        project_update(project=project, domain="text")
    project.refresh_from_db()
    assert (project.domain, project.blank_domain) == ("mixed", "math")
    project_update(project=project, domain="math")
    project.refresh_from_db()
    assert (project.domain, project.blank_domain) == ("math", "")
    assert _blank(project)
    assert not OutboxMessage.objects.filter(task=domain_change.CLEAR_TASK).exists()


def test_names_of_the_new_domain_are_cleared_in_the_background():
    from labeling.services.projects import domain_change

    project = _project(1)
    project_update(project=project, domain="mixed")
    named = SolutionFactory(problem__project=project, problem__domain="math", steps=1)
    project_update(project=project, domain="math")
    assert OutboxMessage.objects.filter(task=domain_change.CLEAR_TASK, args=[project.pk]).exists()
    annotator = _client(project, "annotator")
    Solution.objects.filter(project=project).exclude(pk=named.pk).update(queue_open=False)
    task = annotator.post(f"/api/projects/{project.pk}/queue/next/").json()
    assert (task["solution"]["id"], task["problem"]["domain"]) == (named.pk, "math")
    # Meanwhile a change to another domain would leave them math: refused until cleared.
    with pytest.raises(ValidationFailed, match="still name 'math'"):
        project_update(project=project, domain="text")
    assert tasks.problem_domains_clear_task(project.pk) == 1
    assert tasks.problem_domains_clear_task(project.pk) == 0  # a redelivery: nothing left
    assert _blank(project)
    project_update(project=project, domain="text")
    detail = _client(project, "reviewer").get(f"/api/solutions/{named.pk}/review/").json()
    assert detail["problem"]["domain"] == "text"


def test_the_clear_stops_once_the_project_is_many_domains_again():
    project = _project(0)
    project_update(project=project, domain="mixed")
    SolutionFactory(problem__project=project, problem__domain="math", steps=1)
    project_update(project=project, domain="math")
    project_update(project=project, domain="mixed")  # before the job ran
    assert tasks.problem_domains_clear_task(project.pk) == 0
    assert list(project.problems.values_list("domain", flat=True)) == ["math"]


def test_the_clear_is_marked_and_a_lost_one_is_sent_again_by_the_recovery_sweep(settings):
    """Else a clear lost with its message (Redis restarted) refuses every later change of the
    domain for ever ("try again in a minute")."""
    from datetime import timedelta

    from django.utils import timezone

    from annotate.inflight import InFlight
    from autolabel.recovery import lost_jobs
    from labeling.services.projects import domain_change

    settings.RECOVERY_STALL_S = 60
    project = _project(0)
    project_update(project=project, domain="mixed")
    SolutionFactory(problem__project=project, problem__domain="math", steps=1)
    project_update(project=project, domain="math")
    assert Project.objects.get(pk=project.pk).domain_clear_since is not None
    OutboxMessage.objects.filter(task=domain_change.CLEAR_TASK).update(sent_at=timezone.now())
    held = InFlight(held=frozenset(), workers=1)
    assert lost_jobs(held=held, depth=lambda queue: 0) == []  # marked just now
    Project.objects.filter(pk=project.pk).update(
        domain_clear_since=timezone.now() - timedelta(seconds=600)
    )
    lost = lost_jobs(held=held, depth=lambda queue: 0)
    assert [(kind.task, job.pk) for kind, job in lost] == [(domain_change.CLEAR_TASK, project.pk)]
    assert tasks.problem_domains_clear_task(project.pk) == 1
    assert Project.objects.get(pk=project.pk).domain_clear_since is None
    assert lost_jobs(held=held, depth=lambda queue: 0) == []


def test_leaving_many_domains_with_no_named_problem_marks_nothing():
    project = _project(2)
    project_update(project=project, domain="mixed")
    project_update(project=project, domain="math")
    assert Project.objects.get(pk=project.pk).domain_clear_since is None
