"""Every runnable block of the docs, run in order per file against a live test server.

Shell blocks: `manage.py` lines run in this process (call_command, on the test database);
the other lines (curl, jq, shell variables) run in bash, with http://127.0.0.1:8000 replaced
by the live server's address and $TOKEN set to a token of the demo admin. Python blocks run
with the same address replaced. A ```json response block must match what the block before
it printed last: every key it shows is there, lists item by item, text equal (\"...\" stands
for any, a timestamp for any timestamp), booleans equal, numbers of the same type.
The state they run on is `docs_world` (conftest.py): the demo logins and the example file
imported as "My project", as api.md says; plus the demo projects for a file whose blocks name
one (the README's tour).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
from typing import Any

import pytest
from django.core.management import call_command

from tests.docs.blocks import REPO, SHELL, Block, blocks_in, commands, doc_files, split_command

pytestmark = [pytest.mark.django_db(transaction=True)]

HOST = "http://127.0.0.1:8000"
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")


def runnable(block: Block) -> bool:
    if not block.runs:
        return False
    return block.lang in SHELL | {"python"} or (block.lang == "json" and "response" in block.tags)


FILES = [p for p in doc_files() if any(runnable(b) for b in blocks_in(p))]


def matches(shown: Any, real: Any, at: str = "$") -> list[str]:
    """Where a documented response differs from the real one (the docs may show less)."""
    if isinstance(shown, dict):
        if not isinstance(real, dict):
            return [f"{at}: an object in the docs, {type(real).__name__} in the response"]
        problems = [f"{at}.{key}: not in the response" for key in shown if key not in real]
        for key in shown:
            if key in real:
                problems += matches(shown[key], real[key], f"{at}.{key}")
        return problems
    if isinstance(shown, list):
        if not isinstance(real, list):
            return [f"{at}: a list in the docs, {type(real).__name__} in the response"]
        if shown and not real:
            return [f"{at}: items in the docs, none in the response"]
        pairs = enumerate(zip(shown, real, strict=False))
        return [p for i, (s, r) in pairs for p in matches(s, r, f"{at}[{i}]")]
    if shown is None or real is None:
        return []
    if isinstance(shown, str) and isinstance(real, str):
        # "..." stands for any text; a date and time for any of them; other text is exact.
        same = "..." in shown or TIMESTAMP.match(shown) or shown == real
        return [] if same else [f"{at}: {shown!r} against {real!r}"]
    if isinstance(shown, bool) or isinstance(real, bool):
        return [] if shown == real else [f"{at}: {shown!r} against {real!r}"]
    kinds = (int | float, str)
    for kind in kinds:
        if isinstance(shown, kind):
            return [] if isinstance(real, kind) else [f"{at}: {shown!r} against {real!r}"]
    return []


def last_json(output: str) -> Any:
    decoder, text, value, at = json.JSONDecoder(), output.strip(), None, 0
    while at < len(text):
        value, end = decoder.raw_decode(text, at)
        at = end
        while at < len(text) and text[at].isspace():
            at += 1
    return value


def run_manage(words: list[str]) -> str:
    at = next(i for i, w in enumerate(words) if w.endswith("manage.py"))
    out, err = io.StringIO(), io.StringIO()
    call_command(*words[at + 1 :], stdout=out, stderr=err)
    return out.getvalue()


def run_shell(block: Block, url: str, env: dict[str, str]) -> str:
    output, script = [], []

    def flush() -> None:
        if not script:
            return
        text = "set -euo pipefail\n" + "\n".join(script).replace(HOST, url)
        done = subprocess.run(
            ["bash", "-c", text], capture_output=True, text=True, env=env, timeout=60
        )
        assert done.returncode == 0, f"{block.where}: {done.stderr or done.stdout}"
        output.append(done.stdout)
        script.clear()

    for command in commands(block.text):
        words = split_command(command)
        if any(w.endswith("manage.py") for w in words[:3]):
            flush()
            output.append(run_manage(words))
        elif words[0] in ("curl", "jq") or words[0].split("=", 1)[0].isupper():
            script.append(command)
        else:
            raise AssertionError(f"{block.where}: cannot run {command!r} here; mark it norun")
    flush()
    return "".join(output)


def run_python(block: Block, url: str) -> str:
    out = io.StringIO()
    code = compile(block.text.replace(HOST, url), block.where, "exec")
    with contextlib.redirect_stdout(out):
        exec(code, {"__name__": "__docs__"})  # noqa: S102
    return out.getvalue()


def test_runnable_blocks_run(docs_world, docs_worker, live_server, tmp_path, monkeypatch) -> None:
    """All files in one database, in order (one live server and one flush: the suite stays
    fast); a file's blocks may build on what its earlier blocks did."""
    from labeling.services.people.tokens import token_create

    secret = token_create(user=docs_world["admin"], name="docs tests").key
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "TOKEN": secret}
    (tmp_path / "docs").symlink_to(REPO / "docs")
    if any("Demo: " in b.text for path in FILES for b in blocks_in(path) if runnable(b)):
        call_command("load_demo", stdout=io.StringIO())  # what `make run` serves
    monkeypatch.chdir(tmp_path)
    ran = 0
    for path in FILES:
        output = ""
        for block in blocks_in(path):
            if not runnable(block):
                continue
            if block.lang == "json":
                problems = matches(json.loads(block.text), last_json(output))
                assert not problems, f"{block.where}: " + "; ".join(problems)
                continue
            if block.lang == "python":
                output = run_python(block, live_server.url)
            else:
                output = run_shell(block, live_server.url, env)
            ran += 1
    assert {p.name for p in FILES} >= {"README.md", "admins.md", "api.md"}
    assert ran >= 8


def test_a_response_that_differs_from_the_docs_is_caught() -> None:
    shown = {"error": {"code": "not_found", "message": "...", "details": {}}, "n": [{"id": 1}]}
    real = {
        "error": {"code": "not_found", "message": "Not found.", "details": {}},
        "n": [{"id": 7}],
    }
    assert matches(shown, real) == []
    assert matches(shown, {**real, "error": {"code": "gone", "message": "x", "details": {}}}) == [
        "$.error.code: 'not_found' against 'gone'"
    ]
    assert matches(shown, {"error": real["error"], "n": []}) == [
        "$.n: items in the docs, none in the response"
    ]
    assert matches({"a": True}, {"a": False}) == ["$.a: True against False"]
    assert matches({"t": "2026-12-04T06:00:00Z"}, {"t": "2027-01-01T00:00:00.1+00:00"}) == []
    assert matches({"a": 1}, {}) == ["$.a: not in the response"]
