"""What a code problem's tests may cost a worker: the per-item sandbox budget (pure, no Django).

A problem's tests (``Problem.metadata["tests"]``) come from an import, so a project admin
chooses how many there are, how large they are and how long each may run; the code source runs
one sandboxed program per test, after one per prefix of the solution. Three caps bound one item
(one solution of an auto-label run), for every run whoever started it:

* ``code_tests``: tests per item (assert statements or stdin/stdout cases), also the cap on a
  run's own ``params.code.tests``;
* ``code_test_bytes``: the tests' size as stored (their JSON, UTF-8);
* ``code_item_s``: wall seconds of all the item's sandboxed runs together.

The importer refuses a row whose tests are over the first two (file, line, field: nothing is
written); the worker skips an item over any of them with a failure that says so ("skipped: over
budget"), never a run of hours. An operator raises them in ``AUTOLABEL_LIMITS`` like every
other cap of autolabel/limits.py (whose DEFAULTS include these).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from typing import Any

DEFAULTS: dict[str, float] = {
    "code_tests": 200,  # tests one item runs (and a run's own params.code.tests may list)
    "code_test_bytes": 4_000_000,  # a problem's tests as stored (JSON, UTF-8)
    "code_item_s": 300,  # wall seconds of one item's sandboxed runs (prefixes and tests)
}
# Top-level statements of assert-style test code that set up rather than test (the sandbox's
# judge runs one program per other statement).
SETUP_NODES: tuple[type[ast.stmt], ...] = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Import,
    ast.ImportFrom,
    ast.Assign,
    ast.AnnAssign,
    ast.AugAssign,
)


def assert_code(spec: Any) -> str | None:
    """The assert-style test code of a spec (a string or {"code": str}), else None."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, Mapping) and isinstance(spec.get("code"), str):
        return spec["code"]
    return None


def stored_bytes(spec: Any) -> int:
    """The tests' size as stored: their JSON in UTF-8."""
    try:
        text = json.dumps(spec, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):  # not JSON (a caller's own objects): its text
        text = str(spec)
    return len(text.encode("utf-8", "surrogatepass"))


def run_count(spec: Any) -> int:
    """How many sandboxed runs the tests ask for: the test statements of assert code (0 when
    it does not parse: the worker fails such an item in words), else the cases."""
    code = assert_code(spec)
    if code is not None:
        try:
            tree = ast.parse(code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return 0
        return sum(not isinstance(node, SETUP_NODES) for node in tree.body)
    if isinstance(spec, Mapping) and isinstance(spec.get("inputs"), list):
        return len(spec["inputs"])
    return len(spec) if isinstance(spec, list) else 0


def over_caps(spec: Any, caps: Mapping[str, float]) -> tuple[str, str] | None:
    """(cap name, what is over it) when the tests are over `caps`' size or count, else None.
    The size is checked first, so a huge spec is never parsed."""
    size = stored_bytes(spec)
    if size > caps["code_test_bytes"]:
        return "code_test_bytes", f"{size} bytes of tests; at most {caps['code_test_bytes']:.15g}"
    count = run_count(spec)
    if count > caps["code_tests"]:
        return "code_tests", f"{count} tests; at most {caps['code_tests']:.15g}"
    return None
