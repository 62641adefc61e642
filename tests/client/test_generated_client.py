"""The client package's generated part is what openapi-python-client makes of docs/openapi.yaml
(which tests/api keeps equal to the server's schema): an API change without `make client`
fails here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CLIENT = REPO / "clients" / "python"
GENERATED = CLIENT / "steplab_client" / "generated"


def tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_the_generated_client_matches_the_schema(tmp_path: Path) -> None:
    bin_dir = Path(sys.executable).parent
    out = tmp_path / "generated"
    done = subprocess.run(
        [
            str(bin_dir / "openapi-python-client"),
            "generate",
            "--path",
            str(REPO / "docs" / "openapi.yaml"),
            "--meta",
            "none",
            "--config",
            str(CLIENT / "openapi-config.yaml"),
            "--output-path",
            str(out),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"},
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    fresh, committed = tree(out), tree(GENERATED)
    assert sorted(fresh) == sorted(committed), "files differ: run `make client`"
    changed = [name for name in fresh if fresh[name] != committed[name]]
    assert not changed, f"{len(changed)} files differ, e.g. {changed[:3]}: run `make client`"
