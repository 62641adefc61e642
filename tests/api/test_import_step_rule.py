"""An import's own step rule (POST imports/ with step_split...), recorded on the job; the step
preview; `<think>` steps through the worker to the labeling payload; the CLI's flags."""

import io
import json
import time

import pytest
from django.core.management import CommandError, call_command

from labeling.models import ImportJob, ImportStatus, Step, StepSplit
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

SOLUTION = (
    "<think>\nThe sum is 2 + 3. Is it 5? Check: 2 + 3 = 5.\n</think>\n"
    "Add 2 and 3, e.g. on a number line. The answer is 5."
)


def _jsonl(rows: list[dict]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def _wait(client, job_id: int, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/api/imports/{job_id}/").json()
        if job["status"] in (ImportStatus.DONE, ImportStatus.FAILED):
            return job
        time.sleep(0.05)
    raise AssertionError(f"import {job_id} did not finish: {job}")


def _field(response) -> str:
    """The field a 400 names: a service's `field`, or the serializer's one key."""
    details = response.json()["error"]["details"]
    return details["field"] if "field" in details else next(iter(details))


@pytest.fixture
def admin_client(world, client_for):
    return client_for("admin")


@pytest.mark.django_db(transaction=True)
def test_an_import_splits_by_its_own_rule_and_records_it(world, admin_client, celery_worker_live):
    project = world["project"]
    assert project.step_split == StepSplit.LINE  # the project's default would give 2 steps
    response = admin_client.post(
        f"/api/projects/{project.pk}/imports/",
        {
            "file": io.BytesIO(_jsonl([{"problem": "2+3?", "answer": "5", "solution": SOLUTION}])),
            "format": "steplab",
            "step_split": "sentence",
        },
        format="multipart",
    )
    assert response.status_code == 202, response.json()
    assert response.json()["step_split"] == "sentence"
    job = _wait(admin_client, response.json()["id"])
    assert job["status"] == "done", job
    assert (job["step_split"], job["step_split_regex"], job["step_split_tag"]) == (
        "sentence",
        "",
        "",
    )
    steps = list(
        Step.objects.filter(solution__import_job_id=job["id"])
        .order_by("index")
        .values_list("text", "thinking")
    )
    assert steps == [
        ("The sum is 2 + 3.", True),
        ("Is it 5?", True),
        ("Check: 2 + 3 = 5.", True),
        ("Add 2 and 3, e.g. on a number line.", False),
        ("The answer is 5.", False),
    ]


@pytest.mark.django_db(transaction=True)
def test_a_job_without_a_rule_records_the_projects(world, admin_client, celery_worker_live):
    project = world["project"]
    project.step_split, project.step_split_tag = StepSplit.STEP_TAGS, "ки"
    project.save()
    response = admin_client.post(
        f"/api/projects/{project.pk}/imports/",
        {
            "file": io.BytesIO(_jsonl([{"problem": "p?", "solution": "a ки\nb ки"}])),
            "format": "steplab",
        },
        format="multipart",
    )
    job = _wait(admin_client, response.json()["id"])
    assert job["status"] == "done", job
    assert (job["step_split"], job["step_split_tag"]) == ("step_tags", "ки")
    texts = Step.objects.filter(solution__import_job_id=job["id"]).order_by("index")
    assert [s.text for s in texts] == ["a", "b"]


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"step_split": "words"}, "step_split"),
        ({"step_split": "regex"}, "step_split_regex"),
        ({"step_split": "regex", "step_split_regex": "(a"}, "step_split_regex"),
        ({"step_split": "regex", "step_split_regex": "a" * 501}, "step_split_regex"),
        ({"step_split": "step_tags"}, "step_split_tag"),
        ({"step_split": "step_tags", "step_split_tag": "   "}, "step_split_tag"),
        ({"step_split": "step_tags", "step_split_tag": "x" * 101}, "step_split_tag"),
        ({"step_split_regex": "\\n"}, "step_split_regex"),  # a regex without its rule
        ({"step_split_tag": "<step>"}, "step_split_tag"),
    ],
)
def test_a_bad_rule_is_a_400_naming_the_field_and_makes_no_job(fields, field, world, admin_client):
    before = ImportJob.objects.count()
    response = admin_client.post(
        f"/api/projects/{world['project'].pk}/imports/",
        {"file": io.BytesIO(b'{"problem": "p", "solution": "a"}\n'), **fields},
        format="multipart",
    )
    assert response.status_code == 400, response.json()
    assert _field(response) == field
    assert ImportJob.objects.count() == before


def test_the_preview_cuts_a_text_as_the_import_would(world, admin_client):
    url = f"/api/projects/{world['project'].pk}/step-preview/"
    response = admin_client.post(url, {"text": SOLUTION, "step_split": "sentence"}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["step_split"], body["count"], body["thinking"]) == ("sentence", 5, 3)
    assert body["steps"][0] == {"text": "The sum is 2 + 3.", "thinking": True}
    assert body["steps"][-1] == {"text": "The answer is 5.", "thinking": False}
    # No rule given: the project's (line).
    default = admin_client.post(url, {"text": "a\nb"}, format="json").json()
    assert (default["step_split"], default["count"]) == ("line", 2)
    tags = admin_client.post(
        url, {"text": "a<extra_0>b", "step_split": "step_tags", "step_split_tag": "<extra_0>"}
    ).json()
    assert [s["text"] for s in tags["steps"]] == ["a", "b"]


def test_the_preview_is_bounded_and_names_bad_fields(world, admin_client, client_for):
    url = f"/api/projects/{world['project'].pk}/step-preview/"
    too_long = admin_client.post(url, {"text": "a" * 200_001}, format="json")
    assert too_long.status_code == 400 and _field(too_long) == "text"
    bad = admin_client.post(url, {"text": "a", "step_split": "step_tags"}, format="json")
    assert bad.status_code == 400 and _field(bad) == "step_split_tag"
    many = admin_client.post(url, {"text": "x\n" * 500}, format="json").json()
    assert many["count"] == 500 and len(many["steps"]) == 200
    # Project admins only.
    annotator = client_for("annotator").post(url, {"text": "a"}, format="json")
    assert annotator.status_code == 403


def test_thinking_reaches_the_labeling_payload(db, client_for, world):
    from labeling.services.imports import import_file

    project = ProjectFactory(name="Think", step_split=StepSplit.SENTENCE)
    user = UserFactory(username="thinker")
    MembershipFactory(project=project, user=user, role="annotator")
    path = io.BytesIO(_jsonl([{"problem": "2+3?", "solution": SOLUTION}]))
    import_file(project=project, path=path, filename="t.jsonl", fmt="steplab")
    client = client_for(None)
    client.force_authenticate(user)
    steps = client.post(f"/api/projects/{project.pk}/queue/next/").json()["solution"]["steps"]
    assert [s["thinking"] for s in steps] == [True, True, True, False, False]
    assert steps[3]["text"] == "Add 2 and 3, e.g. on a number line."


def test_the_import_command_takes_a_rule(db, tmp_path, capsys):
    project = ProjectFactory(name="Cli")
    path = tmp_path / "rows.jsonl"
    path.write_bytes(_jsonl([{"problem": "p?", "solution": "One. Two.\nThree"}]))
    call_command(
        "import", str(path), "--project", "Cli", "--step-split", "sentence", "--no-progress"
    )
    assert "step rule: sentence" in capsys.readouterr().out
    texts = Step.objects.filter(solution__project=project).order_by("index")
    assert [s.text for s in texts] == ["One.", "Two.", "Three"]
    with pytest.raises(CommandError, match="--step-tag"):
        call_command(
            "import", str(path), "--project", "Cli", "--step-split", "step_tags", "--no-progress"
        )
