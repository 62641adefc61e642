# ruff: noqa: F811 (the fixtures imported below are used as arguments)
"""A user's own Hugging Face token: saved sealed, never shown back, used for the pushes and Hub
imports the user starts (the stand-in checks the Authorization header), else the server's where
HUB_SERVER_TOKEN_REPOS lists the repo (test_hub_token_scope.py: who else gets the server's)."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from labeling.accounts.sealed import SealBroken, seal, unseal
from labeling.hub.connection import HubAuth, HubError, scrub
from labeling.hub.pull import HubSource
from labeling.models import (
    HubToken,
    ImportJob,
    ImportStatus,
    OutboxMessage,
    Problem,
    Solution,
)
from labeling.services.exports.hub import hub_push_run
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.imports.jobs import import_job_run
from labeling.services.jobs import outbox
from labeling.services.people.hub_tokens import hub_auth_for, hub_token_set
from labeling.tasks import hub_push_task
from tests.exports.hub_standin import Repo
from tests.exports.test_api import client_for, world  # noqa: F401
from tests.exports.test_hub import TOKEN, hub  # noqa: F401
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

ALICE = "hf_aliceAAAAbbbbCCCCdddd1234"
URL = "/api/auth/hub-token/"


def _done_export(world, created_by=None):
    export = export_create(
        project=world["project"],
        created_by=created_by,
        format="trl",
        filters={"label_source": "human"},
        split_policy={"mode": "none"},
    )
    return export_build(export=export)


def test_seal_round_trip_hides_the_text_and_refuses_tampering(settings):
    sealed = seal(ALICE)
    assert ALICE not in sealed and sealed.startswith("f1:")
    assert seal(ALICE) != sealed  # a fresh IV each time
    assert unseal(sealed) == ALICE
    body = sealed[3:]
    flipped = body[:10] + ("A" if body[10] != "A" else "B") + body[11:]
    with pytest.raises(SealBroken):
        unseal("f1:" + flipped)
    with pytest.raises(SealBroken):
        unseal("not sealed")
    old = settings.SECRET_KEY
    settings.SECRET_KEY = "another-key-" + "x" * 40
    with pytest.raises(SealBroken):
        unseal(sealed)
    settings.SECRET_KEY_FALLBACKS = [old]  # a rotation as Django documents it
    assert unseal(sealed) == ALICE


def test_set_read_masked_replace_and_delete(world, hub):
    hub.users[ALICE] = "alice"
    admin = client_for(world, "admin")
    before = admin.get(URL).json()
    assert before == {
        "set": False,
        "last4": "",
        "hub_user": "",
        "checked_at": None,
        "updated_at": None,
        "server_token": True,
        "uses": "none",  # a project admin, not staff, and no repos listed for the server's token
        "server_repos": [],
    }
    answer = admin.put(URL, {"token": ALICE}, format="json")
    assert answer.status_code == 200, answer.content
    assert ALICE.encode() not in answer.content
    body = answer.json()
    assert body["set"] and body["last4"] == "1234" and body["hub_user"] == "alice"
    assert body["uses"] == "user" and body["checked_at"]
    assert ("GET", "/api/whoami-v2") in hub.requests and ALICE in hub.tokens

    saved = HubToken.objects.get(user=world["users"]["admin"])
    assert ALICE not in saved.sealed and unseal(saved.sealed) == ALICE
    assert ALICE.encode() not in admin.get(URL).content

    # Replaced, unchecked this time (no whoami).
    calls = len(hub.requests)
    other = "hf_secondTOKENzzzz9876"
    answer = admin.put(URL, {"token": other, "check": False}, format="json")
    assert answer.json()["last4"] == "9876" and answer.json()["hub_user"] == ""
    assert len(hub.requests) == calls
    assert HubToken.objects.filter(user=world["users"]["admin"]).count() == 1

    assert admin.delete(URL).status_code == 204
    assert admin.get(URL).json()["set"] is False
    assert admin.delete(URL).status_code == 204  # nothing to remove is fine
    assert not HubToken.objects.exists()


def test_other_users_never_see_it(world, hub):
    hub_token_set(user=world["users"]["admin"], token=ALICE, check=False)
    reviewer = client_for(world, "reviewer").get(URL).json()
    assert reviewer["set"] is False and reviewer["last4"] == ""
    assert client_for(world, "reviewer").delete(URL).status_code == 204
    assert HubToken.objects.filter(user=world["users"]["admin"]).exists()  # not theirs to remove
    assert APIClient().get(URL).status_code in (401, 403)
    assert APIClient().put(URL, {"token": ALICE}, format="json").status_code in (401, 403)


def test_saving_a_token_is_throttled_per_user(world, settings):
    """Each save may ask the Hub's whoami from the web process: a client in a loop gets 429."""
    from django.core.cache import cache

    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "hub_token": "2/min",
        },
    }
    cache.clear()
    admin = client_for(world, "admin")
    for _ in range(2):  # refused by the serializer, still counted
        assert admin.put(URL, {"token": "short"}, format="json").status_code == 400
    assert admin.put(URL, {"token": "short"}, format="json").status_code == 429
    assert admin.get(URL).status_code == 200  # reading is not throttled
    assert (
        client_for(world, "reviewer").put(URL, {"token": "short"}, format="json").status_code == 400
    )


@pytest.mark.parametrize(
    ("token", "field"),
    [("short", "token"), ("hf_" + "x" * 500, "token"), ("hf_has a space", "token"), ("", "token")],
)
def test_a_bad_token_is_a_400_naming_the_field(world, token, field):
    answer = client_for(world, "admin").put(URL, {"token": token}, format="json")
    assert answer.status_code == 400
    assert (
        field in answer.json()["error"]["details"]
        or answer.json()["error"]["details"].get("field") == field
    )
    assert not HubToken.objects.exists()


def test_a_token_the_hub_refuses_is_not_saved_nor_echoed(world, hub):
    answer = client_for(world, "admin").put(URL, {"token": ALICE}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "hub_error" and "refused" in error["message"]
    assert ALICE.encode() not in answer.content
    assert not HubToken.objects.exists()


def test_a_push_uses_the_user_token_and_the_record_says_so(world, hub, settings):
    admin = world["users"]["admin"]
    hub_token_set(user=admin, token=ALICE, check=False)
    export = _done_export(world)
    push = hub_push_run(export=export, repo_id="alice/labels", private=True, created_by=admin)
    assert push.status == "done", push.error
    assert push.token_kind == "user"
    assert hub.repos["alice/labels"].owner_token == ALICE
    assert TOKEN not in hub.tokens and ALICE in hub.tokens

    # Someone without a token of their own pushes with the server's, to a listed namespace.
    settings.HUB_SERVER_TOKEN_REPOS = ["team/"]
    push = hub_push_run(
        export=export, repo_id="team/labels", private=True, created_by=world["users"]["reviewer"]
    )
    assert push.status == "done" and push.token_kind == "server"
    assert hub.repos["team/labels"].owner_token == TOKEN

    # The command line's --token wins over both.
    given = "hf_givenONTHEcommandLINE"
    push = hub_push_run(
        export=export, repo_id="cli/labels", private=True, created_by=admin, token=given
    )
    assert push.token_kind == "given" and hub.repos["cli/labels"].owner_token == given


def test_the_task_message_holds_the_push_id_not_the_token(
    world, hub, monkeypatch, django_capture_on_commit_callbacks
):
    sent: list[OutboxMessage] = []
    monkeypatch.setattr(outbox, "_publish", lambda messages: sent.extend(messages))
    hub_token_set(user=world["users"]["admin"], token=ALICE, check=False)
    export = _done_export(world)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client_for(world, "admin").post(
            f"/api/exports/{export.pk}/hub-pushes/", {"repo_id": "alice/prm"}, format="json"
        )
    assert answer.status_code == 202, answer.content
    push_id = answer.json()["id"]
    assert [(m.task, m.args) for m in sent] == [(hub_push_task.name, [push_id])]
    stored = list(OutboxMessage.objects.values())
    assert ALICE not in json.dumps(stored, default=str)
    assert ALICE.encode() not in answer.content

    assert hub_push_task(push_id) == "done"  # what the worker runs with that message
    detail = client_for(world, "admin").get(f"/api/hub-pushes/{push_id}/").json()
    assert detail["token_kind"] == "user"
    assert hub.repos["alice/prm"].owner_token == ALICE


def test_a_hub_import_uses_the_token_of_who_started_it(world, hub):
    admin = world["users"]["admin"]
    hub_token_set(user=admin, token=ALICE, check=False)
    export = _done_export(world)
    hub_push_run(export=export, repo_id="alice/private", private=True, created_by=admin)
    assert hub.repos["alice/private"].private

    target = ProjectFactory(name="From alice's repo")
    source = HubSource("alice/private").as_dict()
    # Started by someone without a token: none is sent (the repo is not listed for the
    # server's), and alice's private repo cannot be read.
    job = ImportJob.objects.create(
        project=target, created_by=world["users"]["reviewer"], filename="x", hub=source
    )
    job = import_job_run(job=job)
    assert job.status == ImportStatus.FAILED
    assert "private and the token cannot read it (no token)" in job.error["message"]

    job = ImportJob.objects.create(
        project=target, created_by=admin, filename="x", hub=source, format="trl"
    )
    job = import_job_run(job=job)
    assert job.status == ImportStatus.DONE, job.error
    assert job.hub["token"] == "user" and job.hub["rows"] == export.row_count
    assert Solution.objects.filter(problem__project=target).count() == export.row_count


def test_hub_errors_never_echo_a_token(world, hub):
    admin = world["users"]["admin"]
    hub_token_set(user=admin, token=ALICE, check=False)
    export = _done_export(world)
    hub.echo_token_error = True
    push = hub_push_run(export=export, repo_id="alice/x", private=True, created_by=admin)
    assert push.status == "failed"
    assert "400" in push.error and "[token]" in push.error
    assert ALICE not in push.error and "hf_alice" not in push.error
    server = HubAuth(TOKEN, "server")
    said = f"said {TOKEN} and hf_someOTHERtoken99abcdefghij, not hf_hub_download"
    assert scrub(said, server) == "said [token] and [token], not hf_hub_download"


def test_a_token_sealed_under_a_lost_key_is_an_error_in_words(world, hub, settings):
    admin = world["users"]["admin"]
    hub_token_set(user=admin, token=ALICE, check=False)
    settings.SECRET_KEY = "rotated-without-fallbacks-" + "y" * 30
    with pytest.raises(HubError, match="can no longer be read"):
        hub_auth_for(user=admin, repo_id="alice/y")
    push = hub_push_run(
        export=_done_export(world), repo_id="alice/y", private=True, created_by=admin
    )
    assert push.status == "failed" and "save it again" in push.error
    assert "alice/y" not in hub.repos  # not pushed with the server's token instead


def test_decontamination_reads_a_private_benchmark_with_the_exporter_token(world, hub):
    admin = world["users"]["admin"]
    hub_token_set(user=admin, token=ALICE, check=False)
    texts = list(Problem.objects.filter(project=world["project"]).values_list("text", flat=True))
    data = "".join(json.dumps({"problem": t}) + "\n" for t in texts[:1]).encode()
    oid = "b" * 40
    hub.repos["alice/bench"] = Repo(
        repo_id="alice/bench",
        private=True,
        owner_token=ALICE,
        commits={oid: {"data/test.jsonl": data}},
        refs={"main": oid},
    )
    benchmark = {"hub": "alice/bench", "config": "default", "split": "test"}

    def build(created_by):
        return export_build(
            export=export_create(
                project=world["project"],
                created_by=created_by,
                format="trl",
                filters={"label_source": "human", "decontaminate": [benchmark]},
                split_policy={"mode": "none"},
            )
        )

    refused = build(world["users"]["reviewer"])  # no token of theirs, none of the server's
    assert refused.status == "failed"
    assert "cannot read it (no token)" in json.dumps(refused.error)
    mine = build(admin)
    assert mine.status == "done", mine.error
    label = "hf://datasets/alice/bench (default/test)"
    assert mine.stats["decontaminated"][label]["problems"] == 1


def test_staff_see_who_has_a_token_in_the_django_admin_never_the_token(world, client):
    from tests.factories import UserFactory

    saved = hub_token_set(user=world["users"]["admin"], token=ALICE, check=False)
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    listing = client.get("/admin/labeling/hubtoken/")
    assert listing.status_code == 200 and b"1234" in listing.content
    page = client.get(f"/admin/labeling/hubtoken/{saved.pk}/change/")
    assert page.status_code == 200
    for secret in (ALICE, saved.sealed):
        assert secret.encode() not in listing.content + page.content
    assert client.get("/admin/labeling/hubtoken/add/").status_code == 403
