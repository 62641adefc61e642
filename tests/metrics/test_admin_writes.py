"""Edits in the Django admin move the metrics version like the services' writes: after an admin
saves or deletes a row the metrics read (an annotation and its step labels, a solution and its
steps, a problem, a suggestion, the project's settings, a user's name), the dashboard is
computed again and equals a fresh computation. Before, the admin wrote around the services and
the snapshot from before the edit was served as it was.

Each test goes through the admin's own pages (the change form as the page renders it, posted
back with one value changed; the delete confirmation; the changelist's delete action)."""

import json

import pytest
from django import forms
from django.contrib.auth import get_user_model

from labeling.models import Annotation, Problem, StepLabel, Suggestion
from tests.factories import SuggestionFactory, UserFactory
from tests.metrics.test_metrics_version import World, _across, _fresh

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(settings) -> World:
    settings.METRICS_LIVE_MAX_ANNOTATIONS = 1_000
    return World()


@pytest.fixture
def staff(client):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def _value(field: forms.Field, value):
    if isinstance(value, bool):
        return "on" if value else None
    if isinstance(value, dict | list) and isinstance(field, forms.JSONField):
        return json.dumps(value)
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    return None if value is None else str(value)


def _form_data(form: forms.BaseForm, data: dict) -> None:
    for name, field in form.fields.items():
        key, value = form.add_prefix(name), form[name].value()
        if isinstance(field, forms.SplitDateTimeField):
            if value:
                data[f"{key}_0"], data[f"{key}_1"] = value.date(), value.time()
            continue
        posted = _value(field, value)
        if posted is not None:
            data[key] = posted


def _change(client, url: str, **changes) -> None:
    """GET the admin change page, POST it back as rendered with `changes` (form keys)."""
    page = client.get(url)
    assert page.status_code == 200
    data: dict = {}
    _form_data(page.context["adminform"].form, data)
    for inline in page.context["inline_admin_formsets"]:
        _form_data(inline.formset.management_form, data)
        for form in inline.formset.forms:
            _form_data(form, data)
    data.update(changes)
    saved = client.post(url, data)
    errors = saved.context and saved.context["adminform"].form.errors
    assert saved.status_code == 302, errors or saved.content[:2000]


def test_an_annotations_step_label_edited(world, staff):
    annotation = world.second
    label = StepLabel.objects.filter(annotation=annotation).order_by("step__index").first()
    url = f"/admin/labeling/annotation/{annotation.pk}/change/"
    page = staff.get(url)
    [inline] = page.context["inline_admin_formsets"]
    prefix = next(f.prefix for f in inline.formset.forms if f.instance.pk == label.pk)
    before, after = _across(world, lambda: _change(staff, url, **{f"{prefix}-rating": "-1"}))
    assert StepLabel.objects.get(pk=label.pk).rating == -1
    assert after != before


def test_an_annotation_deleted(world, staff):
    url = f"/admin/labeling/annotation/{world.first.pk}/delete/"
    _across(world, lambda: staff.post(url, {"post": "yes"}))
    assert not Annotation.objects.filter(pk=world.first.pk).exists()


def test_annotations_deleted_from_the_list(world, staff):
    ids = [str(world.first.pk), str(world.second.pk)]
    body = {"action": "delete_selected", "_selected_action": ids, "post": "yes"}
    _across(world, lambda: staff.post("/admin/labeling/annotation/", body))
    assert not Annotation.objects.filter(pk__in=ids).exists()


def test_a_problems_domain_edited(world, staff):
    problem = world.pair.problem
    url = f"/admin/labeling/problem/{problem.pk}/change/"
    _across(world, lambda: _change(staff, url, domain="code"))
    assert Problem.objects.get(pk=problem.pk).domain == "code"


def test_the_projects_overlap_edited(world, staff):
    url = f"/admin/labeling/project/{world.project.pk}/change/"
    _, after = _across(world, lambda: _change(staff, url, overlap="2"))
    world.project.refresh_from_db()
    assert world.project.overlap == 2


def test_a_suggestion_deleted(world, staff):
    suggestion = SuggestionFactory(step=world.pair.steps.first(), source="rollout", value=-1)
    url = f"/admin/labeling/suggestion/{suggestion.pk}/delete/"
    _across(world, lambda: staff.post(url, {"post": "yes"}))
    assert not Suggestion.objects.filter(pk=suggestion.pk).exists()


def test_a_user_renamed(world, staff):
    """The metrics name raters by username: a rename is a change of what they read."""
    url = f"/admin/auth/user/{world.a.pk}/change/"
    _, after = _across(world, lambda: _change(staff, url, username="mv-renamed"))
    assert get_user_model().objects.get(pk=world.a.pk).username == "mv-renamed"
    assert "mv-renamed" in json.dumps(after)


def test_a_data_migrations_invalidation(world):
    """What a data migration that rewrites labels runs after it (plain SQL, historical models):
    the snapshot from before is not served again."""
    from django.db import connection

    from labeling.services.projects.metrics import metrics_get
    from labeling.services.projects.metrics_version import metrics_snapshots_invalidate

    metrics_get(project=world.project)
    assert metrics_get(project=world.project).cached
    StepLabel.objects.filter(annotation=world.first).update(rating=0)  # as a migration would
    assert metrics_get(project=world.project).cached  # nothing moved the version: stale

    class Editor:  # what RunPython passes
        pass

    editor = Editor()
    editor.connection = connection
    metrics_snapshots_invalidate(None, editor)
    again = metrics_get(project=world.project)
    assert not again.cached and again.data == _fresh(world.project)


def test_a_solution_deleted(world, staff):
    url = f"/admin/labeling/solution/{world.open_one.pk}/delete/"
    _across(world, lambda: staff.post(url, {"post": "yes"}))
    assert not world.project.solutions.filter(pk=world.open_one.pk).exists()


def test_a_project_deleted_in_the_admin(world, staff):
    """Its version goes with it: nothing is left to move (no row for a project that is gone)."""
    from django.db import connection

    from labeling.models import MetricsVersion, Project

    url = f"/admin/labeling/project/{world.project.pk}/delete/"
    assert staff.post(url, {"post": "yes"}).status_code == 302
    connection.check_constraints()  # what the commit would check (the test never commits)
    assert not Project.objects.filter(pk=world.project.pk).exists()
    assert not MetricsVersion.objects.filter(project_id=world.project.pk).exists()
