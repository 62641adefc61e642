"""Images on problems and steps: data: URIs and URLs become stored files, served to members."""

import base64
import json
import struct
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.files.storage import default_storage
from rest_framework.test import APIClient

from labeling.importers import ImportFileError
from labeling.importers.images import MAX_IMAGE_BYTES
from labeling.models import Problem, Solution, Step
from labeling.selectors.labeling_page import task_payload
from labeling.services.imports import import_file
from labeling.services.queue.claim import task_claim_next
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Each test its own storage: project ids repeat across tests, stored files would not."""
    settings.MEDIA_ROOT = str(tmp_path / "media")


def png(width: int = 3, height: int = 2, rgb=(200, 30, 30)) -> bytes:
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def data_uri(blob: bytes, kind: str = "image/png") -> str:
    return f"data:{kind};base64,{base64.b64encode(blob).decode()}"


class _Images(BaseHTTPRequestHandler):
    routes: dict[str, tuple[int, str, bytes]] = {}

    def do_GET(self):  # noqa: N802 - http.server's name
        status, kind, body = self.routes.get(self.path, (404, "text/plain", b"no"))
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def image_server(settings):
    # The server is on 127.0.0.1, which media_fetch refuses unless told to (the SSRF guard).
    settings.MEDIA_FETCH_ALLOW_PRIVATE = True
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Images)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", _Images.routes
    server.shutdown()
    _Images.routes.clear()


def _write(tmp_path, rows) -> "object":
    path = tmp_path / "mm.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_data_uri_and_url_images_are_stored_per_project(tmp_path, image_server):
    base, routes = image_server
    green = png(rgb=(20, 160, 40))
    routes["/chart.png"] = (200, "image/png", green)
    red = png()
    rows = [
        {
            "id": "s1",
            "problem": "What colour is the square?",
            "images": [data_uri(red)],
            "steps": [
                {"text": "Look at the chart.", "images": [f"{base}/chart.png"]},
                "The square is red.",
            ],
        }
    ]
    project = ProjectFactory(domain="multimodal")
    import_file(project=project, path=_write(tmp_path, rows), fmt="steplab", labels_as="none")
    problem = Problem.objects.get()
    [ref] = problem.metadata["images"]
    assert ref["content_type"] == "image/png" and ref["media"].endswith(".png")
    with default_storage.open(f"media/{project.pk}/{ref['media']}", "rb") as f:
        assert f.read() == red
    step = Step.objects.get(index=0)
    [step_ref] = step.metadata["images"]
    assert step_ref["source_url"] == f"{base}/chart.png" and "field" not in step_ref
    with default_storage.open(f"media/{project.pk}/{step_ref['media']}", "rb") as f:
        assert f.read() == green
    assert Step.objects.get(index=1).metadata == {}


@pytest.mark.parametrize(
    ("images", "field", "message"),
    [
        ("x.png", "images", "expected a list"),
        ([3], "images[0]", "expected a URL or a data: URI"),
        (["ftp://host/x.png"], "images[0]", "http(s)"),
        (["data:image/png,notbase64"], "images[0]", "base64 data URI"),
        ([data_uri(b"<svg/>", "image/svg+xml")], "images[0]", "image/svg+xml is not allowed"),
        ([data_uri(b"GIF89a....", "image/png")], "images[0]", "declared image/png but"),
        ([data_uri(b"hello")], "images[0]", "not a PNG, JPEG, GIF, WEBP image"),
        (["data:image/png;base64,!!!"], "images[0]", "invalid base64"),
        ([data_uri(b"\x89PNG\r\n\x1a\n" + b"0" * MAX_IMAGE_BYTES)], "images[0]", "limit"),
    ],
)
def test_bad_images_name_line_and_field_and_import_nothing(tmp_path, images, field, message):
    good = {"problem": "p", "steps": ["a"], "images": [data_uri(png())]}
    bad = {"problem": "q", "steps": ["b"], "images": images}
    project = ProjectFactory()
    with pytest.raises(ImportFileError) as exc:
        import_file(project=project, path=_write(tmp_path, [good, bad]), labels_as="none")
    assert (exc.value.line, exc.value.field) == (2, field)
    assert message in exc.value.message
    assert Solution.objects.count() == 0


@pytest.mark.parametrize(
    ("route", "message"),
    [
        ((404, "text/plain", b"gone"), "answered HTTP 404"),
        ((200, "text/html", b"<html>"), "is text/html, not an image"),
        ((200, "image/png", b"not really"), "not a PNG"),
        ((200, "image/png", b"\x89PNG\r\n\x1a\n" + b"0" * MAX_IMAGE_BYTES), "limit"),
    ],
)
def test_url_images_that_fail_are_refused_with_the_step_field(
    tmp_path, image_server, route, message
):
    base, routes = image_server
    routes["/x"] = route
    row = {"problem": "p", "steps": ["a", {"text": "b", "images": [f"{base}/x"]}]}
    with pytest.raises(ImportFileError) as exc:
        import_file(project=ProjectFactory(), path=_write(tmp_path, [row]), labels_as="none")
    assert (exc.value.line, exc.value.field) == (1, "steps[1].images[0]")
    assert message in exc.value.message
    assert Solution.objects.count() == 0


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_images_are_served_to_members_only_and_reach_the_labeling_payload(tmp_path):
    project, other = ProjectFactory(domain="multimodal"), ProjectFactory()
    row = {
        "problem": "p",
        "images": [data_uri(png())],
        "steps": [{"text": "s", "images": [data_uri(png(2, 2))]}],
    }
    import_file(project=project, path=_write(tmp_path, [row]), labels_as="none")
    annotator, outsider = UserFactory(), UserFactory()
    MembershipFactory(project=project, user=annotator, role="annotator")
    MembershipFactory(project=other, user=outsider, role="admin")
    claim = task_claim_next(project=project, user=annotator)
    payload = task_payload(annotation=claim.annotation, lock_expires_at=None)
    [problem_url] = payload["problem"]["images"]
    [step_url] = payload["solution"]["steps"][0]["images"]
    assert payload["project"]["domain"] == "multimodal"
    response = _client(annotator).get(problem_url, HTTP_ACCEPT="image/*")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert b"".join(response.streaming_content) == png()
    assert response["X-Content-Type-Options"] == "nosniff"
    assert _client(annotator).get(step_url).status_code == 200
    assert _client(outsider).get(problem_url).status_code == 404  # existence does not leak
    assert _client().get(problem_url).status_code in (401, 403)
    # The same name under the other project is not this file.
    name = problem_url.rsplit("/", 1)[1]
    assert _client(outsider).get(f"/api/projects/{other.pk}/media/{name}").status_code == 404
    assert _client(annotator).get(f"/api/projects/{project.pk}/media/..%2Fx.png").status_code == 404
    # Through the API too.
    task = _client(annotator).post(f"/api/projects/{project.pk}/queue/next/").json()
    assert task["problem"]["images"] == [problem_url]


def test_upload_stores_an_image_for_admins_only(tmp_path):
    from django.core.files.uploadedfile import SimpleUploadedFile

    project = ProjectFactory(domain="multimodal")
    admin, annotator = UserFactory(), UserFactory()
    MembershipFactory(project=project, user=admin, role="admin")
    MembershipFactory(project=project, user=annotator, role="annotator")
    url = f"/api/projects/{project.pk}/media/"

    def upload(user, blob, name="a.png", kind="image/png"):
        return _client(user).post(
            url, {"file": SimpleUploadedFile(name, blob, content_type=kind)}, format="multipart"
        )

    made = upload(admin, png())
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["content_type"] == "image/png" and body["url"].endswith(body["media"])
    assert _client(annotator).get(body["url"]).status_code == 200
    assert upload(annotator, png()).status_code == 403
    refused = upload(admin, b"%PDF-1.4", name="a.pdf", kind="application/pdf")
    assert refused.status_code == 400 and "not a PNG" in refused.json()["error"]["message"]


def test_a_multimodal_trl_export_keeps_the_image_references(tmp_path):
    import gzip

    import pyarrow.parquet as pq

    from labeling.models import Export
    from labeling.services.exports.snapshots import export_build, export_create

    project = ProjectFactory(domain="multimodal")
    row = {
        "id": "s1",
        "problem": "What colour?",
        "images": [data_uri(png())],
        "steps": [{"text": "Look.", "images": [data_uri(png(2, 2))]}, "Red."],
        "labels": [1, -1],
    }
    import_file(project=project, path=_write(tmp_path, [row]), labels_as="annotations")
    admin = UserFactory()
    refs = [
        f"/api/projects/{project.pk}/media/{Problem.objects.get().metadata['images'][0]['media']}",
        f"/api/projects/{project.pk}/media/{Step.objects.get(index=0).metadata['images'][0]['media']}",
    ]
    for file_type in ("jsonl.gz", "parquet"):
        export = export_create(project=project, created_by=admin, format="trl", file_type=file_type)
        export = export_build(export=export)
        assert export.status == "done", export.error
        with default_storage.open(export.file.name, "rb") as f:
            if file_type == "parquet":
                rows = pq.read_table(f).to_pylist()
            else:
                rows = [json.loads(line) for line in gzip.decompress(f.read()).splitlines()]
        assert [r["images"] for r in rows] == [refs]
        assert "image references: 2" in Export.objects.get(pk=export.pk).card

    plain = ProjectFactory()  # other domains keep their columns
    import_file(
        project=plain, path=_write(tmp_path, [{**row, "id": "s2"}]), labels_as="annotations"
    )
    export = export_build(export=export_create(project=plain, created_by=admin, format="trl"))
    with default_storage.open(export.file.name, "rb") as f:
        assert "images" not in json.loads(f.readline())


def test_the_review_page_payload_carries_step_meta_and_images(tmp_path):
    from labeling.selectors.review import review_detail

    project = ProjectFactory(domain="multimodal")
    row = {
        "problem": "p",
        "images": [data_uri(png())],
        "steps": [{"text": "s", "images": [data_uri(png(2, 2))]}],
    }
    import_file(project=project, path=_write(tmp_path, [row]), labels_as="none")
    detail = review_detail(solution=Solution.objects.get())
    assert detail["problem"]["images"][0].startswith(f"/api/projects/{project.pk}/media/")
    assert detail["steps"][0]["images"][0].endswith(".png")
    assert detail["steps"][0]["meta"] == {}


def test_image_parts_of_chat_messages_become_problem_and_step_images(tmp_path):
    screenshot = png(4, 4, (10, 10, 10))
    row = {
        "id": "m1",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What does this chart say?"},
                    {"type": "image_url", "image_url": {"url": data_uri(png())}},
                ],
            },
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "shot", "arguments": "{}"}}
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "c",
                "content": [{"type": "image_url", "image_url": {"url": data_uri(screenshot)}}],
            },
            {"role": "assistant", "content": "It rises."},
        ],
    }
    project = ProjectFactory(domain="agent")
    import_file(project=project, path=_write(tmp_path, [row]), fmt="messages", labels_as="none")
    problem = Problem.objects.get()
    assert problem.text == "What does this chart say?"
    assert problem.metadata["images"][0]["content_type"] == "image/png"
    observation = Step.objects.get(index=1)
    assert observation.metadata["kind"] == "observation"
    [ref] = observation.metadata["images"]
    with default_storage.open(f"media/{project.pk}/{ref['media']}", "rb") as f:
        assert f.read() == screenshot
    bad = {**row, "id": "m2"}
    bad["messages"] = [
        bad["messages"][0],
        {"role": "assistant", "content": [{"type": "image_url", "image_url": {"url": "x"}}]},
    ]
    with pytest.raises(ImportFileError) as exc:
        import_file(project=project, path=_write(tmp_path, [bad]), fmt="messages", labels_as="none")
    assert exc.value.field == "messages[1].content[0].image_url.url"
