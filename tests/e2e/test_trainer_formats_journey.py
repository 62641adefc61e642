"""An admin exports the demo project's labels rendered with a tokenizer's chat template.

A tokenizer path that does not exist is refused when the export is created (the error names
the option, nothing is stored); a real tokenizer directory (one made on the spot, with a chat
template and <extra_0>) builds, and the downloaded rows put the separator token at every
`label_positions` entry when tokenized with that tokenizer.
"""

import json

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Export, Project
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login
from tests.e2e.test_annotator_journey import DEMO
from tests.e2e.test_export_journey import _submit_demo_labels, exports_worker  # noqa: F401
from tests.exports.conftest import chat_tokenizer_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_admin_exports_a_chat_template_dataset(live_server, browser, exports_worker, tmp_path):  # noqa: F811
    from transformers import AutoTokenizer

    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    ratings = _submit_demo_labels(project, "annotator")
    solutions = project.solutions.filter(pk__in=ratings).select_related("problem")
    texts = [
        s.problem.text + " " + " ".join(s.steps.values_list("text", flat=True)) for s in solutions
    ]
    tokenizer_path = chat_tokenizer_dir(tmp_path / "tokenizer", texts * 3)

    page = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    login(page, live_server.url, "admin", "steplab-admin")
    page.goto(f"{live_server.url}/projects/{project.pk}?tab=export")
    expect(page.get_by_test_id("export-form")).to_be_visible()
    page.get_by_test_id("export-format").select_option("chat_template")
    page.get_by_test_id("export-label-source").select_option("human")
    page.get_by_test_id("export-tokenizer").fill(str(tmp_path / "missing"))
    page.get_by_test_id("export-system-prompt").fill("Please reason step by step.")
    page.get_by_test_id("export-create").click()
    error = page.get_by_test_id("export-error")
    expect(error).to_contain_text("no directory")
    expect(page.get_by_test_id("export-tokenizer")).to_have_class("input mono input-invalid")
    assert not Export.objects.exists()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / "15-export-chat-template-refused.png"), full_page=True)

    page.get_by_test_id("export-tokenizer").fill(str(tokenizer_path))
    page.get_by_test_id("export-create").click()
    progress = page.get_by_test_id("export-progress")
    expect(progress).to_have_attribute("data-status", "done", timeout=60_000)
    export = Export.objects.get(project=project)
    assert export.format == "chat_template"
    row = page.get_by_test_id("export-row").first
    expect(row).to_contain_text("tokenizer")
    page.screenshot(path=str(SCREENSHOTS / "16-export-chat-template-done.png"), full_page=False)
    with page.expect_download() as info:
        row.get_by_test_id("export-download").click()
    rows = [json.loads(line) for line in info.value.path().read_bytes().decode().splitlines()]
    assert len(rows) == export.row_count == len(ratings)

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_path)
    separator = tokenizer.convert_tokens_to_ids("<extra_0>")
    for r in rows:
        assert r["text"].startswith("<|im_start|>system\nPlease reason step by step.<|im_end|>")
        ids = tokenizer(r["text"], add_special_tokens=False)["input_ids"]
        assert [k for k, i in enumerate(ids) if i == separator] == r["label_positions"]
        assert len(r["labels"]) == len(r["label_positions"]) > 0
    page.close()
