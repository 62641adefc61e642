# ruff: noqa: F811 (the fixtures imported below are used as arguments)
"""The server's HF_TOKEN is the operator's: a user who saved no token of their own gets it only
when staff, or for a repo under HUB_SERVER_TOKEN_REPOS; anyone else talks to the Hub with no
token (the stand-in sees no Authorization header) and a push is refused in words."""

from __future__ import annotations

import json

import pytest

from labeling.hub.connection import NONE, SERVER, USER
from labeling.hub.pull import HubSource
from labeling.models import HubPush, ImportJob, ImportStatus, Problem
from labeling.services.exports.hub import hub_push_execute, hub_push_run
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.imports.jobs import import_job_run
from labeling.services.people.hub_tokens import (
    hub_auth_for,
    hub_token_set,
    server_token_covers,
    server_token_repos,
)
from tests.exports.hub_standin import Repo
from tests.exports.test_api import client_for, world  # noqa: F401
from tests.exports.test_hub import TOKEN, hub  # noqa: F401
from tests.exports.test_hub_token import ALICE, _done_export
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = "/api/auth/hub-token/"


def _private(hub, repo_id: str, data: bytes) -> None:
    """A private dataset only the server's token can read (the operator's organisation's)."""
    oid = "c" * 40
    hub.repos[repo_id] = Repo(
        repo_id=repo_id,
        private=True,
        owner_token=TOKEN,
        commits={oid: {"data/test.jsonl": data}},
        refs={"main": oid},
    )


@pytest.mark.parametrize(
    ("listed", "repo_id", "covered"),
    [
        (["my-org/"], "my-org/data", True),
        (["my-org/"], "My-Org/Data", True),  # repo ids are case-insensitive on the Hub
        (["My-Org/"], "my-org/data", True),
        (["my-org"], "my-org/data", True),  # a bare namespace is the namespace
        (["my-org"], "my-org2/data", False),
        (["my-org/"], "my-org2/data", False),  # whole segments: not another namespace
        (["my-org/"], "other-org/data", False),
        (["my-org/prm-"], "my-org/prm-steps", True),
        (["my-org/prm-"], "my-org/private", False),
        (["my-org/prm-"], "my-org/PRM-steps", True),
        (["my-org/"], "my-org/../other/x", False),  # not a repo id the Hub accepts
        (["my-org/"], "/my-org/data", False),
        (["my-org/"], "my-org/a/b", False),
        (["my-org/"], "my-org/da ta", False),
        (["../"], "../data", False),
        (["/"], "other-org/data", False),  # an entry that names no namespace covers nothing
        (["*/"], "other-org/data", False),
        (["my-org/x/"], "my-org/x/y", False),
        ([""], "other-org/data", False),
        ([], "my-org/data", False),
    ],
)
def test_which_repos_a_listed_prefix_covers(settings, listed, repo_id, covered):
    settings.HUB_SERVER_TOKEN_REPOS = listed
    assert server_token_covers(repo_id) is covered


def test_listed_prefixes_are_normalised_and_bad_ones_left_out(settings):
    settings.HUB_SERVER_TOKEN_REPOS = ["My-Org", "my-org/", " team/prm- ", "/x", "a/../b", "a/b/c"]
    assert server_token_repos() == ("my-org/", "team/prm-")


def test_who_gets_the_servers_token(world, settings):
    admin, reviewer = world["users"]["admin"], world["users"]["reviewer"]
    staff = UserFactory(username="operator", is_staff=True)
    settings.HF_TOKEN = TOKEN
    settings.HUB_SERVER_TOKEN_REPOS = ["my-org/"]
    for user in (admin, reviewer):
        assert hub_auth_for(user=user, repo_id="other-org/data").kind == NONE
        assert hub_auth_for(user=user, repo_id="other-org/data").token is None
        assert hub_auth_for(user=user, repo_id="my-org/data").token == TOKEN
    assert hub_auth_for(user=staff, repo_id="other-org/data").kind == SERVER
    assert hub_auth_for(user=None, repo_id="other-org/data").kind == SERVER  # the operator
    hub_token_set(user=admin, token=ALICE, check=False)
    mine = hub_auth_for(user=admin, repo_id="my-org/data")
    assert mine.kind == USER and mine.token == ALICE


def test_a_project_admins_push_outside_the_list_is_a_400_and_sends_nothing(world, hub):
    export = _done_export(world)
    answer = client_for(world, "admin").post(
        f"/api/exports/{export.pk}/hub-pushes/", {"repo_id": "other-org/data"}, format="json"
    )
    assert answer.status_code == 400, answer.content
    message = answer.json()["error"]["message"]
    assert "save your own token in your settings" in message
    assert "HUB_SERVER_TOKEN_REPOS" in message
    assert not HubPush.objects.exists() and hub.requests == []


def test_a_queued_push_outside_the_list_fails_without_the_servers_token(world, hub):
    """A push created while the repo was covered (or by a user who since removed their token)
    runs with no token: it fails in words before anything reaches the Hub."""
    export = _done_export(world)
    push = HubPush.objects.create(
        export=export, repo_id="other-org/data", created_by=world["users"]["admin"]
    )
    push = hub_push_execute(push=push)
    assert push.status == "failed" and push.token_kind == NONE
    assert "HUB_SERVER_TOKEN_REPOS" in push.error and "other-org/data" in push.error
    assert hub.requests == [] and "other-org/data" not in hub.repos


def test_a_push_to_a_listed_namespace_uses_the_servers_token(world, hub, settings):
    settings.HUB_SERVER_TOKEN_REPOS = ["my-org/"]
    export = _done_export(world)
    push = hub_push_run(
        export=export, repo_id="My-Org/labels", private=True, created_by=world["users"]["admin"]
    )
    assert push.status == "done", push.error
    assert push.token_kind == SERVER and hub.repos["My-Org/labels"].owner_token == TOKEN
    assert set(hub.tokens) == {TOKEN}
    answer = client_for(world, "admin").post(
        f"/api/exports/{export.pk}/hub-pushes/", {"repo_id": "my-org2/labels"}, format="json"
    )
    assert answer.status_code == 400  # a namespace that only starts the same is not listed


def test_staff_keep_the_servers_token_for_any_repo(world, hub):
    staff = UserFactory(username="operator", is_staff=True)
    MembershipFactory(project=world["project"], user=staff, role="admin")
    push = hub_push_run(
        export=_done_export(world), repo_id="other-org/data", private=True, created_by=staff
    )
    assert push.status == "done", push.error
    assert push.token_kind == SERVER and hub.repos["other-org/data"].owner_token == TOKEN


def test_an_import_of_a_private_repo_outside_the_list_sends_no_token(world, hub, settings):
    _private(hub, "other-org/secret", b'{"problem": "1+1?", "steps": ["2"], "labels": [1]}\n')
    job = ImportJob.objects.create(
        project=ProjectFactory(name="Copy"),
        created_by=world["users"]["admin"],
        filename="x",
        hub=HubSource("other-org/secret", split="test").as_dict(),
    )
    job = import_job_run(job=job)
    assert job.status == ImportStatus.FAILED
    assert "private and the token cannot read it (no token)" in job.error["message"]
    assert hub.tokens and set(hub.tokens) == {""}  # no Authorization header at all

    settings.HUB_SERVER_TOKEN_REPOS = ["other-org/"]
    hub.tokens.clear()
    job = ImportJob.objects.create(
        project=ProjectFactory(name="Copy 2"),
        created_by=world["users"]["admin"],
        filename="x",
        hub=HubSource("other-org/secret", split="test").as_dict(),
    )
    job = import_job_run(job=job)
    assert job.hub.get("token") == SERVER and set(hub.tokens) == {TOKEN}


def test_decontamination_reads_an_unlisted_benchmark_without_the_servers_token(
    world, hub, settings
):
    texts = list(Problem.objects.filter(project=world["project"]).values_list("text", flat=True))
    _private(
        hub, "org/bench", "".join(json.dumps({"problem": t}) + "\n" for t in texts[:1]).encode()
    )
    benchmark = {"hub": "org/bench", "config": "default", "split": "test"}

    def build():
        return export_build(
            export=export_create(
                project=world["project"],
                created_by=world["users"]["admin"],
                format="trl",
                filters={"label_source": "human", "decontaminate": [benchmark]},
                split_policy={"mode": "none"},
            )
        )

    refused = build()
    assert refused.status == "failed"
    assert "cannot read it (no token)" in json.dumps(refused.error)
    assert TOKEN not in hub.tokens

    settings.HUB_SERVER_TOKEN_REPOS = ["ORG/bench"]
    read = build()
    assert read.status == "done", read.error
    assert read.stats["decontaminated"]["hf://datasets/org/bench (default/test)"]["problems"] == 1


def test_uses_says_which_token_and_for_which_repos(world, settings):
    settings.HF_TOKEN = TOKEN
    staff = UserFactory(username="operator", is_staff=True)
    admin = client_for(world, "admin")

    def said(client):
        body = client.get(URL).json()
        return body["uses"], body["server_repos"]

    assert said(admin) == ("none", [])
    settings.HUB_SERVER_TOKEN_REPOS = ["My-Org/", "team/prm-"]
    assert said(admin) == ("server_listed", ["my-org/", "team/prm-"])
    as_staff = client_for(world, "admin")
    as_staff.force_authenticate(staff)
    assert said(as_staff)[0] == "server"
    settings.HF_TOKEN = ""  # no server token: nothing it covers
    assert said(admin) == ("none", [])
    assert said(as_staff)[0] == "none"
    hub_token_set(user=world["users"]["admin"], token=ALICE, check=False)
    assert said(admin)[0] == "user"
