"""What a project delete leaves while its purge runs and after: the same 410 for every
annotation of it (purged yet or not), its name free at once, its training directories gone."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from labeling.models import Annotation, Project, Solution
from labeling.services.projects import delete as purge_module
from labeling.services.projects.delete import project_purge
from training_runs.models import PrmModel, TrainingRun
from training_runs.services import run_dir

pytestmark = pytest.mark.django_db

GONE = {"code": "project_deleted", "message": "This project was deleted.", "details": {}}


def _answer(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_every_annotation_of_a_project_being_purged_answers_410(world, client_for):
    """The purge took one annotation's solution and not yet its sibling's: both answer 410
    to the member (not 404 for one of them), the outsider 404; after the purge, 404."""
    project = world["project"]
    annotator, admin = world["users"]["annotator"], world["users"]["admin"]
    purged = world["annotation"]
    sibling_solution = Solution.objects.filter(project=project).exclude(pk=purged.solution_id)[0]
    sibling = Annotation.objects.create(solution=sibling_solution, annotator=annotator)
    assert client_for("admin").delete(f"/api/projects/{project.pk}/").status_code == 202
    # What one batch of the purge does, to the purged annotation's solution.
    for rows in purge_module._solution_children([purged.solution_id]):
        purge_module._delete(rows)
    assert not Annotation.objects.filter(pk=purged.pk).exists()
    assert Annotation.objects.filter(pk=sibling.pk).exists()

    client = client_for("annotator")
    for annotation in (purged, sibling):
        base = f"/api/annotations/{annotation.pk}/"
        assert _answer(client.get(base)) == (410, "project_deleted")
        assert _answer(client.get(f"{base}feedback/")) == (410, "project_deleted")
        body = {"version": 1, "labels": []}
        assert _answer(client.put(f"{base}draft/", body, format="json"))[0] == 410
        assert _answer(client.post(f"{base}submit/", body, format="json"))[0] == 410
        assert _answer(client.post(f"{base}skip/", {}, format="json"))[0] == 410
        # The reviewer's URLs of it, and of its solution.
        reviewer = client_for("reviewer")
        assert reviewer.get(f"/api/solutions/{annotation.solution_id}/review/").status_code == 410
    assert client.get(f"/api/annotations/{purged.pk}/").json()["error"] == GONE
    # Someone with no part in the deleted project learns nothing about it.
    assert _answer(client_for("outsider").get(f"/api/annotations/{purged.pk}/"))[0] == 404
    assert (
        client_for("outsider").get(f"/api/solutions/{purged.solution_id}/review/").status_code
        == 404
    )

    project_purge(project_id=project.pk)
    assert not Project.objects.filter(pk=project.pk).exists()
    for annotation in (purged, sibling):
        assert _answer(client.get(f"/api/annotations/{annotation.pk}/")) == (404, "not_found")
    assert admin.memberships.count() == 0


def test_a_member_of_a_project_being_purged_cannot_tell_foreign_ids_from_missing_ones(
    world, client_for
):
    """Another team's solution and an id that names nothing answer alike (both 410 now), as
    they both answered 404 before: no answer says which ids exist."""
    project, other = world["project"], world["other"]
    foreign = Solution.objects.filter(project=other).first()
    foreign_annotation = Annotation.objects.create(
        solution=foreign, annotator=world["users"]["outsider"]
    )
    reviewer = client_for("reviewer")
    assert reviewer.get(f"/api/solutions/{foreign.pk}/review/").status_code == 404
    assert reviewer.get("/api/solutions/999999/review/").status_code == 404
    assert client_for("admin").delete(f"/api/projects/{project.pk}/").status_code == 202
    answers = [
        _answer(reviewer.get(f"/api/solutions/{sid}/review/")) for sid in (foreign.pk, 999999)
    ]
    assert answers == [(410, "project_deleted")] * 2
    for aid in (foreign_annotation.pk, 999999):
        url = f"/api/annotations/{aid}/reject/"
        assert _answer(reviewer.post(url, {"comment": "x"}, format="json"))[0] == 410
        assert _answer(client_for("annotator").get(f"/api/annotations/{aid}/"))[0] == 410


def test_an_unknown_annotation_is_a_404_while_no_project_of_the_user_is_being_purged(
    world, client_for
):
    Project.objects.filter(pk=world["other"].pk).update(deleted_at=timezone.now())
    # The annotator is no member of the project being purged: a plain 404.
    response = client_for("annotator").get("/api/annotations/999999/")
    assert _answer(response) == (404, "not_found")
    # Staff see every project: while any is being purged, a missing id may be one of it.
    assert _answer(client_for("staff").get("/api/annotations/999999/"))[0] == 410


def test_a_deleted_projects_name_is_free_as_soon_as_the_delete_is_accepted(world, client_for):
    project = world["project"]
    admin = client_for("staff")  # who may create projects
    taken = admin.post("/api/projects/", {"name": "Alpha"}, format="json")
    assert taken.status_code == 400, taken.content
    assert admin.delete(f"/api/projects/{project.pk}/").status_code == 202

    again = admin.post("/api/projects/", {"name": "Alpha"}, format="json")
    assert again.status_code == 201, again.content
    assert again.json()["id"] != project.pk
    # Live projects still may not share it: neither a third one nor a rename.
    assert admin.post("/api/projects/", {"name": "Alpha"}, format="json").status_code == 400
    beta = world["other"]
    rename = admin.patch(f"/api/projects/{beta.pk}/", {"name": "Alpha"}, format="json")
    assert rename.status_code == 400, rename.content
    # And the database holds it too, past the validation.
    with pytest.raises(IntegrityError), transaction.atomic():
        Project.objects.create(name="Alpha")
    # The purge of the old one leaves the new one alone.
    project_purge(project_id=project.pk)
    assert list(Project.objects.filter(name="Alpha").values_list("pk", flat=True)) == [
        again.json()["id"]
    ]


def test_the_purge_deletes_the_projects_training_directories(
    world, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.TRAINING_ROOT = str(tmp_path / "training")
    project, other = world["project"], world["other"]
    trained = TrainingRun.objects.create(project=project, base_model="/m", status="done")
    never_started = TrainingRun.objects.create(project=project, base_model="/m")
    kept = TrainingRun.objects.create(project=other, base_model="/m", status="done")
    for run in (trained, kept):
        out = run_dir(run) / "out"
        out.mkdir(parents=True)
        (out / "model.safetensors").write_bytes(b"weights")
        (run_dir(run) / "train.log").write_text("step 1\n")
        TrainingRun.objects.filter(pk=run.pk).update(artifact_path=str(out))
    registered = tmp_path / "users-own-prm"  # registered by path: the user's, not ours
    registered.mkdir()
    (registered / "config.json").write_text("{}")
    PrmModel.objects.create(project=project, name="theirs", path=str(registered))
    assert not run_dir(never_started).exists()  # a missing directory is no error

    Project.objects.filter(pk=project.pk).update(deleted_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        assert project_purge(project_id=project.pk)["project"] == 1
    assert not run_dir(trained).exists()
    assert (run_dir(kept) / "out" / "model.safetensors").read_bytes() == b"weights"
    assert (registered / "config.json").exists()
    assert not TrainingRun.objects.filter(project_id=project.pk).exists()
