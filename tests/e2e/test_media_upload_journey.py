"""A multimodal project's admin uploads an image on the Import tab and gets its reference."""

import hashlib
import json

import pytest
from django.core.files.storage import default_storage
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.management.commands.load_demo import MULTIMODAL_PROJECT
from labeling.models import Problem, Project
from labeling.services.imports import import_file
from tests.domains.test_media import png
from tests.e2e.helpers import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_admin_uploads_an_image_and_imports_a_row_that_uses_it(live_server, page, tmp_path):
    call_command("load_demo")
    project = Project.objects.get(name=MULTIMODAL_PROJECT)
    login(page, live_server.url, "admin", "steplab-admin")
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{live_server.url}/projects/{project.pk}?tab=import")
    image = png(40, 24, (30, 90, 200))
    page.get_by_test_id("media-file").set_input_files(
        {"name": "bars.png", "mimeType": "image/png", "buffer": image}
    )
    page.get_by_test_id("media-submit").click()
    snippet = page.get_by_test_id("media-snippet")
    name = f"{hashlib.sha256(image).hexdigest()}.png"
    expect(snippet).to_have_value(json.dumps({"media": name}, separators=(",", ":")))
    thumb = page.get_by_test_id("media-item").get_by_role("img", name="bars.png")
    page.wait_for_function(
        "img => img.complete && img.naturalWidth === 40", arg=thumb.element_handle()
    )
    page.get_by_test_id("media-upload").screenshot(path=str(_shot("media-01-uploaded")))
    page.screenshot(path=str(_shot("media-02-import-tab")), full_page=True)
    assert default_storage.exists(f"media/{project.pk}/{name}")

    # The copied reference is what an import file names.
    row = {"problem": "Which bar is tallest?", "images": [json.loads(snippet.input_value())]}
    path = tmp_path / "uses-upload.jsonl"
    path.write_text(json.dumps({**row, "steps": ["The blue one."]}) + "\n")
    import_file(project=project, path=path, labels_as="none")
    problem = Problem.objects.get(project=project, text="Which bar is tallest?")
    assert problem.metadata["images"] == [{"media": name, "content_type": "image/png"}]


def _shot(name: str):
    from tests.e2e.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
