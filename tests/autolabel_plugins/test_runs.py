"""A run with an installed plug-in, end to end: the API lists it with its schema, a run's
values are checked against the schema (400 naming the field, nothing stored), the worker's
processing writes suggestions under the plug-in's name, and a plug-in that breaks the result
contract fails its items without writing under another source."""

import pytest
from rest_framework.test import APIClient

from autolabel.models import AutolabelRun, ItemStatus, RunStatus
from autolabel.services import (
    autolabel_item_process,
    autolabel_run_chunks,
    autolabel_run_create,
    autolabel_run_refresh,
)
from labeling.errors import ValidationFailed
from labeling.models import Suggestion
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db

STEPS = [
    "Let x be the number of apples: 3 + 4 = 7.",
    "So the answer is probably 8, I think.",
    "Maybe it is 9.",
]


@pytest.fixture
def project(db):
    project = ProjectFactory(name="Plug-ins")
    admin = UserFactory(username="plugadmin")
    MembershipFactory(project=project, user=admin, role="admin")
    project.admin = admin
    project.solution = SolutionFactory(problem__project=project, steps=STEPS)
    return project


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _run_inline(run):
    for chunk in autolabel_run_chunks(run=run, size=25):
        for solution_id in chunk:
            autolabel_item_process(run=run, solution_id=solution_id)
    return autolabel_run_refresh(run=run)


def test_the_api_lists_builtins_and_plugins_with_their_schema(installed, project):
    listed = _client(project.admin).get("/api/autolabel-engines/")
    assert listed.status_code == 200, listed.content
    by_name = {e["name"]: e for e in listed.json()}
    assert by_name["symbolic"]["builtin"] is True and by_name["symbolic"]["params"] is None
    hedges = by_name["hedges"]
    assert hedges["builtin"] is False
    assert hedges["plugin"] == "steplab-plugin-example 0.1.0"
    assert hedges["queue"] == "default" and hedges["domains"] == []
    assert hedges["params"][1] == {
        "name": "min_hits",
        "type": "int",
        "default": 1,
        "label": "Hedges needed",
        "help": "How many hedging phrases a step needs before it is flagged.",
        "minimum": 1,
        "maximum": 20,
    }
    assert hedges["params"][0]["choices"] == ["evidence", "neutral"]
    assert "bad-queue" not in by_name  # skipped plug-ins are not offered


def test_the_listing_needs_a_signed_in_user(project):
    assert APIClient().get("/api/autolabel-engines/").status_code in (401, 403)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"min_hits": 0}, "params.hedges: min_hits must be an integer from 1 to 20, got 0"),
        ({"min_hits": 2**63}, "params.hedges: min_hits must be an integer from 1 to 20"),
        ({"min_per_100_words": 1e300}, "params.hedges: min_per_100_words must be a number"),
        ({"verdict": "wrong"}, "params.hedges: verdict must be one of evidence, neutral"),
        ({"extra_phrases": "x" * 501}, "params.hedges: extra_phrases must be a string of at"),
        ({"case_sensitive": "yes"}, "params.hedges: case_sensitive must be true or false"),
        ({"colour": 1}, "params.hedges: unknown params ['colour']"),
        ("fast", "params.hedges: must be an object"),
    ],
)
def test_run_values_are_checked_against_the_schema(installed, project, params, field):
    response = _client(project.admin).post(
        f"/api/projects/{project.pk}/autolabel-runs/",
        {"sources": ["hedges"], "params": {"hedges": params}},
        format="json",
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["message"].startswith(field), error
    key = params if isinstance(params, str) else next(iter(params))
    expected = "params.hedges" if isinstance(params, str) else f"params.hedges.{key}"
    assert error["details"]["field"] == expected
    assert AutolabelRun.objects.count() == 0


def test_a_run_writes_suggestions_under_the_plugin_name(installed, project):
    response = _client(project.admin).post(
        f"/api/projects/{project.pk}/autolabel-runs/",
        {"sources": ["hedges", "symbolic"], "params": {"hedges": {"verdict": "neutral"}}},
        format="json",
    )
    assert response.status_code == 202, response.content
    run = _run_inline(AutolabelRun.objects.get(pk=response.json()["id"]))
    assert (run.status, run.done, run.failed) == (RunStatus.DONE, 1, 0)
    rows = Suggestion.objects.filter(source="hedges").order_by("step__index")
    assert [(r.step.index, r.value, r.agent) for r in rows] == [
        (1, 0, "hedges:v1"),
        (2, 0, "hedges:v1"),
    ]
    assert rows[0].evidence["phrases"] == ["probably", "I think"]
    # Run again with the defaults: evidence only, same rows updated, none duplicated.
    _run_inline(autolabel_run_create(project=project, sources=["hedges"]))
    assert list(Suggestion.objects.filter(source="hedges").values_list("value", flat=True)) == [
        None,
        None,
    ]


def test_unknown_plugin_is_refused_by_name(installed, project):
    with pytest.raises(ValidationFailed, match=r"Unknown or missing sources \['bad-queue'\]"):
        autolabel_run_create(project=project, sources=["bad-queue"])


def test_a_plugin_that_breaks_the_result_contract_fails_its_items(installed, project):
    run = _run_inline(autolabel_run_create(project=project, sources=["liar"]))
    assert (run.status, run.done, run.failed) == (RunStatus.FAILED, 0, 1)
    assert "step_index 3 is not a step of this solution (0..2)" in run.errors[0]["error"]
    assert run.items.get().status == ItemStatus.FAILED
    assert not Suggestion.objects.exists()


def test_a_plugin_limited_to_domains_is_offered_only_there(installed, project, monkeypatch):
    monkeypatch.setattr(installed.PLUGINS["hedges"], "domains", ("code",))
    with pytest.raises(ValidationFailed, match="does not apply to a math project"):
        autolabel_run_create(project=project, sources=["hedges"])
    project.domain = "code"
    project.save(update_fields=["domain"])
    assert autolabel_run_create(project=project, sources=["hedges"]).total == 1


def test_a_worker_without_the_plugin_fails_the_items_with_the_reason(installed, project):
    """Installed on the web process, missing on the worker: the run ends, it does not hang."""
    from autolabel.registry import chunk_queue

    run = autolabel_run_create(project=project, sources=["hedges"])
    installed.engines_load(points=[])  # this "worker" has no plug-ins
    assert chunk_queue(run.sources) == "autolabel"  # CPU-only: the machine queue
    run = _run_inline(run)
    assert (run.status, run.failed) == (RunStatus.FAILED, 1)
    assert "source 'hedges' is not installed in this process" in run.errors[0]["error"]
