"""`{"media": name}` in an import's `images`: an image uploaded to the project beforehand."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from labeling.importers import ImportFileError
from labeling.models import Problem, Solution
from labeling.services.imports import import_file
from tests.domains.test_media import png
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


def _upload(project, blob: bytes) -> dict:
    admin = UserFactory()
    MembershipFactory(project=project, user=admin, role="admin")
    client = APIClient()
    client.force_authenticate(admin)
    response = client.post(
        f"/api/projects/{project.pk}/media/",
        {"file": SimpleUploadedFile("chart.png", blob, content_type="image/png")},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    return response.json()


def _import(tmp_path, project, images) -> None:
    path = tmp_path / "refs.jsonl"
    rows = [
        {"problem": "plain", "steps": ["a"]},
        {"problem": "p", "images": images, "steps": ["a"]},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    import_file(project=project, path=path, labels_as="none")


def test_an_uploaded_image_is_referenced_by_its_name(tmp_path):
    project = ProjectFactory(domain="multimodal")
    uploaded = _upload(project, png())
    _import(tmp_path, project, [{"media": uploaded["media"]}])
    problem = Problem.objects.get(text="p")
    assert problem.metadata["images"] == [{"media": uploaded["media"], "content_type": "image/png"}]


@pytest.mark.parametrize(
    ("ref", "field", "message"),
    [
        ({"media": "f" * 64 + ".png"}, "images[0].media", "is not an image of this project"),
        ({"media": "../secret.png"}, "images[0].media", "expected a stored image's name"),
        ({"media": 3}, "images[0].media", "expected a stored image's name"),
        ({"media": "f" * 64 + ".png", "url": "x"}, "images[0]", "unexpected keys url"),
        ({"url": "http://x"}, "images[0]", "expected a URL or a data: URI, got an object"),
    ],
)
def test_bad_references_name_the_field_and_import_nothing(tmp_path, ref, field, message):
    project = ProjectFactory(domain="multimodal")
    with pytest.raises(ImportFileError) as exc:
        _import(tmp_path, project, [ref])
    assert (exc.value.line, exc.value.field) == (2, field)
    assert message in exc.value.message
    assert Solution.objects.count() == 0


def test_another_projects_image_is_not_this_projects(tmp_path):
    mine, theirs = ProjectFactory(domain="multimodal"), ProjectFactory(domain="multimodal")
    uploaded = _upload(theirs, png(4, 4))
    with pytest.raises(ImportFileError) as exc:
        _import(tmp_path, mine, [{"media": uploaded["media"]}])
    assert f"upload it first (POST /api/projects/{mine.pk}/media/)" in exc.value.message
