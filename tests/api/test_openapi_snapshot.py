"""The OpenAPI schema is what docs/openapi.yaml holds, byte for byte: a change to the API's
shape (a field, an endpoint, a help text) shows in review as a change to that file. After an
intended change: `make openapi`, and list the change in the commit."""

from pathlib import Path

from django.core.management import call_command

SNAPSHOT = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"


def test_the_schema_is_the_checked_in_one(tmp_path):
    generated = tmp_path / "openapi.yaml"
    call_command("spectacular", "--file", str(generated))
    assert generated.read_bytes() == SNAPSHOT.read_bytes(), (
        "The OpenAPI schema changed. If intended, run `make openapi` and commit docs/openapi.yaml."
    )
