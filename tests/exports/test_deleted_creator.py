# ruff: noqa: F811 (the fixtures imported below are used as arguments)
"""A job whose creator was deleted acts with the least privilege in the worker, never as the
server: deleting a user sets `created_by` to NULL, which the workers read as "the server
itself" (a management command), so a project admin's queued push, Hub import or export ran with
the operator's HF_TOKEN for any repo once their account was removed."""

from __future__ import annotations

import json

import pytest

from labeling.hub.connection import NONE, SERVER
from labeling.hub.pull import HubSource
from labeling.models import Export, HubPush, ImportJob, ImportStatus, Problem
from labeling.services.exports.hub import hub_push_create, hub_push_execute, hub_push_run
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.imports.jobs import import_job_run
from tests.exports.test_api import world  # noqa: F401
from tests.exports.test_hub import TOKEN, hub  # noqa: F401
from tests.exports.test_hub_token import _done_export
from tests.exports.test_hub_token_scope import _private
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db


def _member(world, **kwargs):
    user = UserFactory(**kwargs)
    MembershipFactory(project=world["project"], user=user, role="admin")
    return user


def _gone(user, job):
    user.delete()
    job.refresh_from_db()
    assert job.created_by_id is None
    return job


def test_a_queued_push_whose_creator_was_deleted_gets_no_server_token(world, hub, settings):
    settings.HUB_SERVER_TOKEN_REPOS = ["my-org/"]  # the creator could push there only
    user = _member(world)
    push = hub_push_create(
        export=_done_export(world), repo_id="my-org/labels", private=True, created_by=user
    )
    push.repo_id = "other-org/data"  # what a listed repo gives no right to
    push.save(update_fields=["repo_id"])
    push = hub_push_execute(push=_gone(user, push))
    assert push.status == "failed" and push.token_kind == NONE
    assert "other-org/data" in push.error
    assert hub.requests == [] and "other-org/data" not in hub.repos


def test_a_staff_members_push_is_not_the_servers_once_they_are_deleted(world, hub):
    staff = _member(world, is_staff=True)
    push = hub_push_create(
        export=_done_export(world), repo_id="other-org/data", private=True, created_by=staff
    )
    push = hub_push_execute(push=_gone(staff, push))
    assert push.status == "failed" and push.token_kind == NONE
    assert hub.requests == []


def test_the_servers_own_push_keeps_the_servers_token(world, hub):
    push = hub_push_run(
        export=_done_export(world), repo_id="other-org/data", private=True, created_by=None
    )
    assert push.created_by_server and push.status == "done", push.error
    assert push.token_kind == SERVER and hub.repos["other-org/data"].owner_token == TOKEN
    legacy = HubPush.objects.create(export=push.export, repo_id="other-org/two")
    assert hub_push_execute(push=legacy).status == "failed"  # NULL, not marked: nobody's


def test_a_hub_import_whose_creator_was_deleted_sends_no_token(world, hub):
    _private(hub, "other-org/secret", b'{"problem": "1+1?", "steps": ["2"], "labels": [1]}\n')
    staff = _member(world, is_staff=True)
    job = ImportJob.objects.create(
        project=ProjectFactory(name="Copy"),
        created_by=staff,
        filename="x",
        hub=HubSource("other-org/secret", split="test").as_dict(),
    )
    job = import_job_run(job=_gone(staff, job))
    assert job.status == ImportStatus.FAILED
    assert "private and the token cannot read it (no token)" in job.error["message"]
    assert TOKEN not in hub.tokens


def test_an_export_whose_creator_was_deleted_decontaminates_without_the_servers_token(world, hub):
    texts = list(Problem.objects.filter(project=world["project"]).values_list("text", flat=True))
    _private(hub, "org/bench", (json.dumps({"problem": texts[0]}) + "\n").encode())
    benchmark = {"hub": "org/bench", "config": "default", "split": "test"}
    options = {
        "format": "trl",
        "filters": {"label_source": "human", "decontaminate": [benchmark]},
        "split_policy": {"mode": "none"},
    }
    staff = _member(world, is_staff=True)
    queued = export_create(project=world["project"], created_by=staff, **options)
    refused = export_build(export=_gone(staff, queued))
    assert refused.status == "failed"
    assert "cannot read it (no token)" in json.dumps(refused.error)
    assert TOKEN not in hub.tokens
    # The command line's export (created_by None, marked the server's) reads it.
    ours = export_build(export=export_create(project=world["project"], created_by=None, **options))
    assert ours.status == "done", ours.error
    assert Export.objects.get(pk=ours.pk).created_by_server
