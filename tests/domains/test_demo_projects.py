"""load_demo makes one project per new domain, with its data (images stored, not public)."""

import io

import pytest
from django.core.files.storage import default_storage
from django.core.management import call_command

from labeling.management.commands.load_demo import AGENT_PROJECT, MULTIMODAL_PROJECT, TEXT_PROJECT
from labeling.models import Project, Step

pytestmark = pytest.mark.django_db


def test_load_demo_makes_the_domain_projects_idempotently():
    call_command("load_demo", stdout=io.StringIO())
    call_command("load_demo", stdout=io.StringIO())
    agent, multimodal, text = (
        Project.objects.get(name=name) for name in (AGENT_PROJECT, MULTIMODAL_PROJECT, TEXT_PROJECT)
    )
    assert (agent.domain, multimodal.domain, text.domain) == ("agent", "multimodal", "text")
    assert agent.solutions.count() == multimodal.solutions.count() == text.solutions.count() == 4
    kinds = set(
        Step.objects.filter(solution__project=agent).values_list("metadata__kind", flat=True)
    )
    assert kinds == {"tool_call", "observation", "message"}
    problem = multimodal.problems.get(external_id="mm-tri")
    [ref] = problem.metadata["images"]
    path = f"media/{multimodal.pk}/{ref['media']}"
    assert default_storage.exists(path) and default_storage.size(path) < 10_000
    step = Step.objects.get(solution__external_id="mm-tri-1", index=1)
    assert step.metadata["images"][0]["content_type"] == "image/png"
    assert not Step.objects.filter(solution__project=text).exclude(metadata={}).exists()


def test_load_demo_reset_deletes_the_old_projects_images(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    call_command("load_demo", stdout=io.StringIO())
    old = Project.objects.get(name=MULTIMODAL_PROJECT)
    _, files = default_storage.listdir(f"media/{old.pk}")
    assert len(files) == 4  # three problem figures and one step figure
    call_command("load_demo", "--reset", stdout=io.StringIO())
    new = Project.objects.get(name=MULTIMODAL_PROJECT)
    assert new.pk != old.pk
    assert default_storage.listdir(f"media/{old.pk}")[1] == []
    assert len(default_storage.listdir(f"media/{new.pk}")[1]) == 4


@pytest.mark.django_db
def test_demo_projects_review_queues_read_the_stored_reasons():
    from io import StringIO

    from django.core.management import call_command

    from labeling.models import Project

    call_command("load_demo", stdout=StringIO())
    assert Project.objects.exists()
    assert not Project.objects.filter(review_reasons_stored=False).exists()
