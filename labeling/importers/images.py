"""The `images` field of a problem or step: data: URIs decoded and checked here, URLs kept.

Each entry is a string: a `data:image/...;base64,...` URI or an `http(s)://` URL, or an object
`{"media": "<sha256>.<ext>"}` naming an image already uploaded to the project. A data URI
is decoded now (its type must be one of IMAGE_TYPES, its bytes must look like that type and
fit MAX_IMAGE_BYTES) and leaves a reference `{"media": "<sha256>.<ext>", "content_type"}`
with its bytes in `ParsedRow.media`; a URL leaves `{"url": ..., "field": ...}`, which the
import service downloads under the same limits (labeling/services/media/images.py). Either way the
stored row only ever names a file in the project's media, served by an authenticated view.
"""

import base64
import binascii
import hashlib
import re
from typing import Any

from .fields import Row, json_type

MAX_IMAGE_BYTES = 5 * 1024 * 1024
MAX_IMAGES = 16
IMAGE_TYPES = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp"}
_DATA_URI = re.compile(
    r"^data:(?P<type>[\w.+-]+/[\w.+-]+)(?P<params>(?:;[^,;]*)*),(?P<data>.*)$", re.S
)


def sniff(blob: bytes) -> str | None:
    """The image type the bytes start like, or None."""
    if blob.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if blob.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if blob[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if blob[:4] == b"RIFF" and blob[8:12] == b"WEBP":
        return "image/webp"
    return None


def check_image(blob: bytes, declared: str | None) -> str:
    """The image's content type; raises ValueError with the reason it is refused."""
    if len(blob) > MAX_IMAGE_BYTES:
        raise ValueError(f"image is {len(blob)} bytes; the limit is {MAX_IMAGE_BYTES}")
    if not blob:
        raise ValueError("image is empty")
    actual = sniff(blob)
    if actual is None:
        raise ValueError(
            f"not a {', '.join(t.split('/')[1].upper() for t in IMAGE_TYPES)} image"
            + (f" (declared {declared})" if declared else "")
        )
    if declared and declared != actual and declared in IMAGE_TYPES:
        raise ValueError(f"declared {declared} but the bytes are {actual}")
    return actual


def media_name(blob: bytes, content_type: str) -> str:
    return f"{hashlib.sha256(blob).hexdigest()}.{IMAGE_TYPES[content_type]}"


def parse_images(row: Row, data: dict[str, Any], at: str, media: dict[str, bytes]) -> list[dict]:
    """The references for `data[at-relative "images"]`; decoded bytes go into `media`."""
    value = data.get("images")
    field = f"{at}.images" if at else "images"
    if value is None:
        return []
    if not isinstance(value, list):
        raise row.error(field, f"expected a list of URLs or data: URIs, got {json_type(value)}")
    if len(value) > MAX_IMAGES:
        raise row.error(field, f"{len(value)} images; the limit is {MAX_IMAGES}")
    return [parse_image(row, item, f"{field}[{i}]", media) for i, item in enumerate(value)]


def parse_image(row: Row, item: Any, path: str, media: dict[str, bytes]) -> dict:
    """One image entry (a URL or a data: URI) as a reference; `path` names it in errors."""
    if isinstance(item, dict) and "media" in item:
        return _stored(row, item, path)
    if not isinstance(item, str):
        raise row.error(path, f"expected a URL or a data: URI, got {json_type(item)}")
    if item.startswith("data:"):
        return _data_uri(row, item, path, media)
    if re.match(r"^https?://[^\s/]+", item):
        return {"url": item, "field": path}
    raise row.error(path, "expected an http(s):// URL or a data:image/...;base64, URI")


def _data_uri(row: Row, uri: str, path: str, media: dict[str, bytes]) -> dict:
    match = _DATA_URI.match(uri)
    if match is None or ";base64" not in match["params"]:
        raise row.error(path, "expected a base64 data URI (data:image/png;base64,...)")
    declared = match["type"].lower()
    if declared not in IMAGE_TYPES:
        allowed = ", ".join(IMAGE_TYPES)
        raise row.error(path, f"type {declared} is not allowed; use one of {allowed}")
    if len(match["data"]) > MAX_IMAGE_BYTES * 4 // 3 + 4:
        raise row.error(path, f"image is over the {MAX_IMAGE_BYTES}-byte limit")
    try:
        blob = base64.b64decode(match["data"], validate=True)
    except (binascii.Error, ValueError) as exc:
        raise row.error(path, f"invalid base64: {exc}") from exc
    try:
        content_type = check_image(blob, declared)
    except ValueError as exc:
        raise row.error(path, str(exc)) from exc
    name = media_name(blob, content_type)
    media[name] = blob
    return {"media": name, "content_type": content_type}


_MEDIA_NAME = re.compile(r"^[0-9a-f]{64}\.(?:png|jpg|gif|webp)$")


def _stored(row: Row, item: dict, path: str) -> dict:
    """`{"media": "<sha256>.<ext>"}`: an image already stored in the project (uploaded through
    POST /api/projects/<id>/media/); the import service checks that it is there."""
    name = item["media"]
    if set(item) - {"media", "content_type"}:
        extra = ", ".join(sorted(set(item) - {"media", "content_type"}))
        raise row.error(path, f'unexpected keys {extra}; a stored image is {{"media": name}}')
    if not isinstance(name, str) or not _MEDIA_NAME.match(name):
        raise row.error(
            f"{path}.media",
            "expected a stored image's name, <sha256>.png|jpg|gif|webp, as the upload returns it",
        )
    ext = name.rsplit(".", 1)[1]
    content_type = next(t for t, e in IMAGE_TYPES.items() if e == ext)
    return {"media": name, "content_type": content_type, "field": path}
