"""Stored images of a project: problems' and steps' `images`, kept in Django's storage.

Files live at `media/<project id>/<sha256>.<ext>` (content-addressed: the same image is stored
once per project, and storing it again is a no-op), never under a public URL: the labeling
page reads them through `GET /api/projects/<id>/media/<name>`, which checks membership.
A reference in metadata is `{"media": "<sha256>.<ext>", "content_type", "source_url"?}`.
"""

import re
from collections.abc import Iterator

import httpx
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from labeling.errors import ValidationFailed
from labeling.importers import ImportFileError, ParsedRow
from labeling.importers.images import IMAGE_TYPES, MAX_IMAGE_BYTES, check_image, media_name
from labeling.models import Project
from labeling.services.media.url_guard import guarded_get

NAME = re.compile(r"^[0-9a-f]{64}\.(?:png|jpg|gif|webp)$")
CONTENT_TYPES = {ext: content_type for content_type, ext in IMAGE_TYPES.items()}


def media_path(project_id: int, name: str) -> str:
    if not NAME.match(name):
        raise ValidationFailed(f"{name!r} is not a media name.", field="name")
    return f"media/{project_id}/{name}"


def media_save(*, project: Project, blob: bytes, content_type: str | None = None) -> dict:
    """Store one image (checked: type, size, bytes) and return its reference."""
    try:
        kind = check_image(blob, content_type)
    except ValueError as exc:
        raise ValidationFailed(str(exc), field="file") from exc
    name = media_name(blob, kind)
    path = media_path(project.pk, name)
    if not default_storage.exists(path):
        default_storage.save(path, ContentFile(blob))
    return {"media": name, "content_type": kind}


def media_delete_project(*, project_id: int) -> int:
    """Delete a deleted project's stored images: nothing serves them any more, and a database
    that is reset (ids start again) must not find them. Returns how many files went."""
    folder = f"media/{project_id}"
    try:
        _, files = default_storage.listdir(folder)
    except FileNotFoundError:
        return 0
    for name in files:
        default_storage.delete(f"{folder}/{name}")
    return len(files)


def media_fetch(url: str) -> tuple[bytes, str | None]:
    """Download an image URL under the size limit; raises ValueError with the reason.

    Only global addresses are fetched, redirects included (services/url_guard.py), unless
    settings.MEDIA_FETCH_ALLOW_PRIVATE is set."""
    timeout = getattr(settings, "MEDIA_FETCH_TIMEOUT_S", 10.0)
    try:
        with guarded_get(url, timeout=timeout) as response:
            if response.status_code != 200:
                raise ValueError(f"GET {url} answered HTTP {response.status_code}")
            declared = response.headers.get("content-type", "").split(";")[0].strip().lower()
            if declared and declared not in IMAGE_TYPES:
                raise ValueError(f"GET {url} is {declared}, not an image")
            length = response.headers.get("content-length")
            if length and length.isdigit() and int(length) > MAX_IMAGE_BYTES:
                raise ValueError(f"image is {length} bytes; the limit is {MAX_IMAGE_BYTES}")
            chunks, size = [], 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > MAX_IMAGE_BYTES:
                    raise ValueError(f"image is over the {MAX_IMAGE_BYTES}-byte limit")
                chunks.append(chunk)
            return b"".join(chunks), declared or None
    except httpx.HTTPError as exc:
        raise ValueError(f"cannot download {url}: {exc}") from exc


def _refs(row: ParsedRow) -> Iterator[list[dict]]:
    """The row's lists of image references (a batch has thousands of steps, few with any)."""
    if images := row.problem.metadata.get("images"):
        yield images
    for solution in row.solutions:
        for step in solution.steps:
            if step.metadata and (images := step.metadata.get("images")):
                yield images


def media_store_rows(*, project: Project, rows: list[ParsedRow], filename: str) -> int:
    """Store the images a batch of parsed rows refers to; URLs are downloaded and replaced
    by references. Raises ImportFileError (file, line, field) for an image it refuses."""
    stored = 0
    for row in rows:
        for name, blob in row.media.items():
            path = media_path(project.pk, name)
            if not default_storage.exists(path):
                default_storage.save(path, ContentFile(blob))
                stored += 1
        for refs in _refs(row):
            for i, ref in enumerate(refs):
                if "media" in ref and "field" in ref:  # `{"media": name}` in the file
                    field = ref.pop("field")
                    if not default_storage.exists(media_path(project.pk, ref["media"])):
                        raise ImportFileError(
                            file=filename,
                            line=row.line,
                            field=f"{field}.media",
                            message=f"{ref['media']} is not an image of this project; upload it"
                            f" first (POST /api/projects/{project.pk}/media/)",
                        )
                    continue
                if "url" not in ref:
                    continue
                field = ref.pop("field", None)
                try:
                    blob, declared = media_fetch(ref["url"])
                    kind = check_image(blob, declared)
                except ValueError as exc:
                    raise ImportFileError(
                        file=filename, line=row.line, field=field, message=str(exc)
                    ) from exc
                saved = media_save(project=project, blob=blob, content_type=kind)
                refs[i] = {**saved, "source_url": ref["url"]}
                stored += 1
    return stored
