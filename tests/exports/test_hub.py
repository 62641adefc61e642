"""Exports to the Hub and datasets from it, against a local stand-in (tests/exports/hub_standin.py):
push then pull gives the same rows, a tag per export, private by default, errors in words."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from labeling.hub.connection import HubError
from labeling.hub.pull import HubSource, hub_split_write
from labeling.models import ImportJob, ImportStatus, Problem, Project, Solution
from labeling.services.exports.hub import hub_push_run
from labeling.services.imports.jobs import import_job_run
from tests.exports.conftest import raw_rows, read_rows
from tests.exports.hub_standin import hub_standin

pytestmark = pytest.mark.django_db

TOKEN = "hf_test_token"


@pytest.fixture
def hub(settings, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    with hub_standin() as standin:
        settings.HF_ENDPOINT, settings.HF_TOKEN = standin.url, TOKEN
        yield standin


def pulled(repo_id: str, split: str, **kwargs) -> list[dict]:
    out = io.BytesIO()
    hub_split_write(HubSource(repo_id, split=split, **kwargs), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def without_split(rows: list[dict]) -> dict[str, list[dict]]:
    by_split: dict[str, list[dict]] = {}
    for row in rows:
        row = dict(row)
        by_split.setdefault(row.pop("split"), []).append(row)
    return by_split


@pytest.mark.parametrize("file_type", ["jsonl", "jsonl.gz", "parquet"])
def test_push_then_pull_gives_the_same_rows(hub, load, build, file_type):
    load("processbench_sample.jsonl", fmt="processbench")
    export = build("processbench", file_type=file_type, filters={"label_source": "imported"})
    push = hub_push_run(export=export, repo_id="team/pb", private=True, created_by=None)
    assert push.status == "done", push.error
    assert push.tag == f"export-{export.pk}" and push.private

    exported = without_split(read_rows(export))
    assert set(exported) == {"train", "validation", "test"}
    assert push.splits == {name: len(rows) for name, rows in exported.items()}
    files = hub.files("team/pb")
    assert sorted(files) == [
        "README.md",
        "data/test-00000-of-00001.parquet",
        "data/train-00000-of-00001.parquet",
        "data/validation-00000-of-00001.parquet",
    ]
    card = files["README.md"].decode()
    assert "path: data/train-*.parquet" in card and f'revision="export-{export.pk}"' in card
    for split, rows in exported.items():
        assert pulled("team/pb", split, revision=push.tag) == rows
    assert hub.repos["team/pb"].private


def test_each_export_is_a_tag_and_main_holds_the_latest(hub, load, build):
    load("processbench_sample.jsonl", fmt="processbench")
    first = build(
        "processbench", filters={"label_source": "imported"}, split_policy={"mode": "none"}
    )
    second = build("processbench", filters={"label_source": "imported"})
    assert (
        hub_push_run(export=first, repo_id="team/pb", private=False, created_by=None).status
        == "done"
    )
    again = hub_push_run(export=first, repo_id="team/pb", private=False, created_by=None)
    assert again.status == "done" and again.tag == f"export-{first.pk}"  # a re-push is harmless
    assert (
        hub_push_run(export=second, repo_id="team/pb", private=False, created_by=None).status
        == "done"
    )

    assert not hub.repos["team/pb"].private
    assert len(pulled("team/pb", "train", revision=f"export-{first.pk}")) == first.row_count
    assert "data/train-00000-of-00001.parquet" in hub.files("team/pb")
    latest = sum(
        len(pulled("team/pb", s)) for s in ("train", "validation", "test") if s in _splits(hub)
    )
    assert latest == second.row_count
    assert hub.repos["team/pb"].tags == {f"export-{first.pk}", f"export-{second.pk}"}


def _splits(hub) -> set[str]:
    return {p.split("/")[1].split("-")[0] for p in hub.files("team/pb") if p.startswith("data/")}


def test_a_hub_split_imports_like_a_file(hub, load, build, django_user_model):
    load("processbench_sample.jsonl", fmt="processbench")
    export = build(
        "processbench", filters={"label_source": "imported"}, split_policy={"mode": "none"}
    )
    assert (
        hub_push_run(export=export, repo_id="team/pb", private=True, created_by=None).status
        == "done"
    )

    target = Project.objects.create(name="from the hub")
    # Only users start Hub imports; an operator's reads the private repo with HF_TOKEN (a job
    # with no creator is a deleted user's: no token, tests/exports/test_deleted_creator.py).
    operator = django_user_model.objects.create(username="operator", is_staff=True)
    job = ImportJob.objects.create(
        project=target,
        created_by=operator,
        filename=HubSource("team/pb").label(),
        hub=HubSource("team/pb", revision=f"export-{export.pk}").as_dict(),
        labels_as="annotations",
    )
    job = import_job_run(job=job)
    assert job.status == ImportStatus.DONE, job.error
    assert job.detected_format == "processbench"
    assert job.hub["rows"] == export.row_count
    assert Solution.objects.filter(problem__project=target).count() == len(
        raw_rows("processbench_sample.jsonl")
    )


def test_a_bad_hub_import_fails_in_words_and_writes_nothing(hub, project):
    job = ImportJob.objects.create(
        project=project, filename="x", hub=HubSource("team/missing").as_dict()
    )
    job = import_job_run(job=job)
    assert job.status == ImportStatus.FAILED
    assert "No dataset repo team/missing" in job.error["message"]
    assert job.error["field"] == "repo_id"
    assert not Problem.objects.filter(project=project).exists()


def test_pull_names_the_splits_a_repo_has(hub, load, build):
    load("processbench_sample.jsonl", fmt="processbench")
    export = build(
        "processbench", filters={"label_source": "imported"}, split_policy={"mode": "none"}
    )
    hub_push_run(export=export, repo_id="team/pb", private=True, created_by=None)
    with pytest.raises(HubError, match="has no split 'test'; it has: train"):
        pulled("team/pb", "test")
    with pytest.raises(HubError, match="no config 'other'"):
        pulled("team/pb", "train", config="other")


def test_a_private_repo_needs_the_token(hub, load, build, settings):
    load("processbench_sample.jsonl", fmt="processbench")
    export = build(
        "processbench", filters={"label_source": "imported"}, split_policy={"mode": "none"}
    )
    hub_push_run(export=export, repo_id="team/pb", private=True, created_by=None)
    settings.HF_TOKEN = ""
    with pytest.raises(HubError, match="private and the token cannot read it"):
        pulled("team/pb", "train")


def test_hub_layout_without_a_card_is_read_by_file_names(hub):
    from huggingface_hub import CommitOperationAdd, HfApi

    api = HfApi(endpoint=hub.url, token=TOKEN)
    api.create_repo("team/raw", repo_type="dataset")
    rows = [{"a": 1}, {"a": 2}]
    body = "".join(json.dumps(r) + "\n" for r in rows).encode()
    api.create_commit(
        "team/raw",
        [CommitOperationAdd("train.jsonl", body), CommitOperationAdd("test.jsonl", b'{"a": 3}\n')],
        commit_message="raw",
        repo_type="dataset",
    )
    assert pulled("team/raw", "train") == rows
    assert pulled("team/raw", "test") == [{"a": 3}]


@pytest.mark.parametrize(
    "repo_id", ["", "noslash", "a/b/c", "../etc", "a/..", "x" * 97 + "/y", "a/b c"]
)
def test_repo_ids_are_checked(repo_id):
    with pytest.raises(HubError, match="owner/name"):
        HubSource(repo_id).checked()


def test_an_unreachable_hub_is_an_error_in_words(settings, load, build, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    settings.HF_ENDPOINT, settings.HF_TOKEN = "http://127.0.0.1:9", TOKEN
    load("processbench_sample.jsonl", fmt="processbench")
    export = build(
        "processbench", filters={"label_source": "imported"}, split_policy={"mode": "none"}
    )
    push = hub_push_run(export=export, repo_id="team/pb", private=True, created_by=None)
    assert push.status == "failed"
    assert "Could not reach the Hub" in push.error or "answered" in push.error


def test_commands_push_and_import(hub, load, build):
    load("processbench_sample.jsonl", fmt="processbench")
    export = build(
        "processbench", filters={"label_source": "imported"}, split_policy={"mode": "none"}
    )
    out = io.StringIO()
    call_command("hub_push", str(export.pk), "team/cli", stdout=out)
    assert f"at export-{export.pk}" in out.getvalue()
    out = io.StringIO()
    call_command(
        "import",
        "--hub",
        "team/cli",
        "--project",
        "cli copy",
        "--create-project",
        "--no-progress",
        stdout=out,
    )
    assert f"Fetched {export.row_count} rows" in out.getvalue()
    assert Solution.objects.filter(problem__project__name="cli copy").count() == export.row_count
    with pytest.raises(CommandError, match="one of them"):
        call_command("import", "--project", "x", stdout=io.StringIO())
    with pytest.raises(CommandError, match="No dataset repo"):
        call_command("import", "--hub", "team/none", "--project", "cli copy", stdout=io.StringIO())
