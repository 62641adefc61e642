"""The OpenAPI schema is what docs/openapi.yaml holds, byte for byte: a change to the API's
shape (a field, an endpoint, a help text) shows in review as a change to that file. After an
intended change: `make openapi`, and list the change in the commit.

The schema is the one a PostgreSQL deployment serves (integer bounds follow the backend's
column types); it is generated for that backend without connecting to one, whatever the
database these tests run on."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "docs" / "openapi.yaml"
# Only the backend's name matters: the schema needs its operations, not a connection.
SCHEMA_DATABASE_URL = "postgres://schema@127.0.0.1:1/schema"


def test_the_schema_is_the_checked_in_one(tmp_path):
    generated = tmp_path / "openapi.yaml"
    env = {**os.environ, "DATABASE_URL": SCHEMA_DATABASE_URL}
    env.pop("DJANGO_SETTINGS_MODULE", None)  # manage.py's default, as `make openapi` runs it
    subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--file", str(generated)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert generated.read_bytes() == SNAPSHOT.read_bytes(), (
        "The OpenAPI schema changed. If intended, run `make openapi` and commit docs/openapi.yaml."
    )
