"""training/ is pure ML: it imports neither Django nor the apps (autolabel, labeling,
training_runs, annotate). A judge or anything else from them comes in as a callable."""

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "rest_framework", "celery", "annotate", "labeling", "autolabel")
FORBIDDEN += ("training_runs",)

# Run in a fresh interpreter (this one has Django loaded): a meta-path hook refuses every
# forbidden package, then every module of training/ is imported.
PROBE = """
import importlib, json, pkgutil, sys

FORBIDDEN = set(json.loads(sys.argv[1]))
refused = []


class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in FORBIDDEN:
            refused.append(name)
            raise ImportError(f"training may not import {name}")
        return None


sys.meta_path.insert(0, Refuse())
import training

names = ["training"] + [
    m.name for m in pkgutil.walk_packages(training.__path__, "training.")
]
for name in names:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules if m.partition(".")[0] in FORBIDDEN)
print(json.dumps({"modules": names, "refused": refused, "loaded": loaded}))
"""


def _training_files() -> list[Path]:
    return sorted((ROOT / "training").rglob("*.py"))


def run_probe(probe: str, *args: str) -> dict:
    """Run `probe` in a fresh interpreter from the repo root with FORBIDDEN as its first
    argument; its last line of output, JSON, is the report."""
    done = subprocess.run(
        [sys.executable, "-c", probe, json.dumps(FORBIDDEN), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_every_training_module_imports_without_django_or_the_apps():
    report = run_probe(PROBE)
    assert report["refused"] == [] and report["loaded"] == []
    # Every file was imported (the walk missed none).
    files = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in _training_files()
    }
    assert files <= set(report["modules"])


def test_no_import_statement_in_training_names_them():
    """Function-level imports too, which importing a module does not run."""
    found = []
    for path in _training_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno} {name}"
                for name in names
                if name.partition(".")[0] in FORBIDDEN
            ]
    assert found == []
