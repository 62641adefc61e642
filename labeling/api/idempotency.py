"""The client's idempotency key of a job-creating request (labeling.services.jobs.outbox) or of an
annotation write (draft, submit, skip: labeling.services.labeling.annotations).

Either the `Idempotency-Key` header (1 to 100 printable ASCII characters) or a `request_id`
UUID in the body; a retry with the same key answers the job the first request made, or the
annotation write it applied.
"""

import re
import uuid

from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from labeling.errors import ValidationFailed

MAX_KEY = 100
_KEY = re.compile(rf"[\x21-\x7e]{{1,{MAX_KEY}}}")

HELP = (
    "A key the client makes once per job it creates and sends again on every retry (a UUID "
    "is a good one); a retry with it answers the job made the first time instead of another."
)

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": MAX_KEY},
    OpenApiParameter.HEADER,
    required=False,
    description=HELP + f" 1 to {MAX_KEY} printable ASCII characters.",
)


def request_id_field() -> serializers.UUIDField:
    return serializers.UUIDField(required=False, help_text=HELP + " Same as Idempotency-Key.")


def idempotency_key(request, request_id: uuid.UUID | None = None) -> str:
    """The key of this request, or "" when it sent none."""
    header = request.headers.get("Idempotency-Key")
    if header is not None and not _KEY.fullmatch(header):
        raise ValidationFailed(
            f"Idempotency-Key must be 1 to {MAX_KEY} printable ASCII characters.",
            field="Idempotency-Key",
        )
    body = str(request_id) if request_id is not None else None
    if header is not None and body is not None and header != body:
        raise ValidationFailed(
            "Idempotency-Key and request_id differ; send one of them.", field="request_id"
        )
    return header or body or ""


# Maps a header key that is not a UUID to one: an annotation keeps the id of its last write in
# a UUID column (Annotation.last_request_id).
_KEY_NAMESPACE = uuid.UUID("9b6f0a52-3c1e-4c55-9a59-3f0f7d2b8e61")


def write_request_id(request, request_id: uuid.UUID | None) -> uuid.UUID | None:
    """The id of an annotation write: its Idempotency-Key header or its body's `request_id`
    (None: neither, the write is not idempotent)."""
    key = idempotency_key(request, request_id)
    if not key:
        return None
    try:
        return uuid.UUID(key)
    except ValueError:
        return uuid.uuid5(_KEY_NAMESPACE, key)
