"""manage.py import and manage.py load_demo."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from labeling.management.commands.load_demo import FIRST_ERROR_PROJECT, PROJECTS, STEP_PROJECT
from labeling.models import (
    Annotation,
    Problem,
    Project,
    ProjectMembership,
    Solution,
    StepLabel,
    Suggestion,
)
from tests.factories import ProjectFactory

from .conftest import DATA, raw_rows, table_counts

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_import_command_prints_counts():
    project = ProjectFactory(name="Bench")
    out, _ = run(str(DATA / "math_shepherd_sample.jsonl"), "--project", "Bench", "--no-progress")
    assert "format math_shepherd" in out
    assert "solutions_created: 7" in out and "labels_created: 25" in out
    assert Solution.objects.filter(project=project).count() == 7


def test_import_command_by_id_with_format_and_labels_as():
    project = ProjectFactory()
    out, _ = run(
        str(DATA / "processbench_sample.jsonl"),
        "--project",
        str(project.pk),
        "--format",
        "processbench",
        "--labels-as",
        "none",
    )
    assert "labels_created: 0" in out
    assert Solution.objects.filter(project=project).count() == 100
    assert Suggestion.objects.count() == 0


def test_import_command_creates_the_project_only_when_asked():
    path = str(DATA / "math500_sample.jsonl")
    with pytest.raises(CommandError, match="--create-project"):
        run(path, "--project", "New one")
    out, err = run(path, "--project", "New one", "--create-project")
    assert Problem.objects.filter(project__name="New one").count() == len(
        raw_rows("math500_sample.jsonl")
    )
    assert "math500_sample.jsonl" in err  # the progress bar


def test_import_command_reports_the_bad_line(write_jsonl):
    ProjectFactory(name="P")
    path = write_jsonl(
        [{"problem": "p", "steps": ["a"]}, {"problem": "p", "steps": "a"}], name="bad.jsonl"
    )
    err = io.StringIO()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import", str(path), "--project", "P", "--no-progress", stderr=err)
    assert err.getvalue().strip() == "bad.jsonl:2: steps: expected a list, got a string"
    assert set(table_counts().values()) == {0}


def test_import_command_rejects_a_missing_file():
    ProjectFactory(name="P")
    with pytest.raises(CommandError, match="no such file"):
        run("/nonexistent.jsonl", "--project", "P")


def test_load_demo_is_idempotent_and_serves_a_five_step_solution_first():
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "annotator / steplab-annotator" in out.getvalue()
    counts = table_counts()
    call_command("load_demo", stdout=io.StringIO())
    assert table_counts() == counts

    step, first_error = (
        Project.objects.get(name=STEP_PROJECT),
        Project.objects.get(name=FIRST_ERROR_PROJECT),
    )
    assert (step.overlap, step.show_suggestions, step.first_error_mode) == (1, True, False)
    assert (first_error.overlap, first_error.first_error_mode) == (2, True)
    first = Solution.objects.filter(project=step).order_by("id").first()
    assert first.source == "processbench" and first.steps.count() == 5
    assert Suggestion.objects.filter(step__solution=first).count() == 4  # first error at step 4
    assert Solution.objects.filter(project=step).count() == 12 + 40
    assert Problem.objects.filter(project=step, solutions__isnull=True).count() == 10
    assert Solution.objects.filter(project=first_error).count() == 9

    users = get_user_model().objects
    for username, password in [
        ("admin", "steplab-admin"),
        ("annotator", "steplab-annotator"),
        ("annotator2", "steplab-annotator2"),
        ("reviewer", "steplab-reviewer"),
    ]:
        assert users.get(username=username).check_password(password)
    assert users.get(username="admin").is_superuser
    roles = set(ProjectMembership.objects.values_list("project__name", "user__username", "role"))
    assert (STEP_PROJECT, "reviewer", "reviewer") in roles
    assert (FIRST_ERROR_PROJECT, "annotator2", "annotator") in roles
    assert (STEP_PROJECT, "admin", "admin") in roles
    assert len(roles) == 4 * len(PROJECTS)  # every demo user in every demo project


def test_load_demo_reset_recreates_the_projects():
    call_command("load_demo", stdout=io.StringIO())
    old = Project.objects.get(name=STEP_PROJECT).pk
    Solution.objects.filter(project_id=old).first().delete()
    call_command("load_demo", "--reset", stdout=io.StringIO())
    project = Project.objects.get(name=STEP_PROJECT)
    assert project.pk != old
    assert Solution.objects.filter(project=project).count() == 52
    first = Solution.objects.filter(project=project).order_by("id").first()
    assert first.steps.count() == 5


def test_load_demo_again_changes_nothing_and_reset_restores_the_demo():
    call_command("load_demo", stdout=io.StringIO())
    users = get_user_model().objects
    annotator = users.get(username="annotator")
    annotator.set_password("my-own-password")
    annotator.save()
    step = Project.objects.get(name=STEP_PROJECT)
    ProjectMembership.objects.filter(project=step, user__username="reviewer").update(
        role="annotator"
    )
    ProjectMembership.objects.filter(project=step, user__username="annotator2").delete()
    step.overlap, step.show_suggestions = 3, False
    step.save()
    solution = Solution.objects.filter(project=step).order_by("id").first()
    annotation = Annotation.objects.create(solution=solution, annotator=annotator)
    StepLabel.objects.create(annotation=annotation, step=solution.steps.first(), rating=-1)
    counts = table_counts()

    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert f"Project {STEP_PROJECT!r} exists: left as it is" in out.getvalue()
    assert table_counts() == counts
    assert users.get(username="annotator").check_password("my-own-password")
    roles = dict(
        ProjectMembership.objects.filter(project=step).values_list("user__username", "role")
    )
    assert roles == {"admin": "admin", "annotator": "annotator", "reviewer": "annotator"}
    step.refresh_from_db()
    assert (step.overlap, step.show_suggestions) == (3, False)
    assert StepLabel.objects.get(annotation__annotator=annotator).rating == -1

    # A demo user deleted is made again, with its demo password and every demo project.
    users.filter(username="annotator2").delete()
    call_command("load_demo", stdout=io.StringIO())
    assert users.get(username="annotator2").check_password("steplab-annotator2")
    assert ProjectMembership.objects.filter(user__username="annotator2").count() == len(PROJECTS)
    assert users.get(username="annotator").check_password("my-own-password")

    call_command("load_demo", "--reset", stdout=io.StringIO())
    assert users.get(username="annotator").check_password("steplab-annotator")
    step = Project.objects.get(name=STEP_PROJECT)
    assert (step.overlap, step.show_suggestions) == (1, True)
    roles = dict(
        ProjectMembership.objects.filter(project=step).values_list("user__username", "role")
    )
    assert roles == {
        "admin": "admin",
        "annotator": "annotator",
        "annotator2": "annotator",
        "reviewer": "reviewer",
    }
    assert not Annotation.objects.filter(annotator__isnull=False).exists()
    assert Solution.objects.filter(project=step).count() == 52
