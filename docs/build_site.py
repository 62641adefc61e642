"""Stage the docs site's sources: the README as the home page, docs/ beside it, ARCHITECTURE and
RELIABILITY too, with links rewritten to where the pages land. `make docs-site` runs this, then
`mkdocs build --strict` (mkdocs.yml) into var/site; `make docs-serve` serves that, read-only.

    python docs/build_site.py var/docs-src
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
TOP = ("ARCHITECTURE.md", "RELIABILITY.md")  # pages from the repository root


def _relink(text: str, rules: list[tuple[str, str]]) -> str:
    """Rewrite Markdown link targets ](old → ](new, prefixes first to last."""

    def one(match: re.Match[str]) -> str:
        target = match[1]
        for old, new in rules:
            if target.startswith(old):
                return f"]({new}{target[len(old) :]}"
        return match[0]

    return re.sub(r"\]\(([^)\s]+)", one, text)


def stage(out: Path) -> list[Path]:
    """Write the site's Markdown into `out` (emptied first); returns the pages written."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for folder in ("img", "examples"):
        shutil.copytree(DOCS / folder, out / folder)
    pages = []

    def write(name: str, text: str) -> None:
        # Fences keep their language only: the tags tests/docs reads (```sh norun, ```json
        # import=steplab) are not fence attributes Python-Markdown understands.
        text = re.sub(r"^( *`{3,})(\w+)[^\n`]*$", r"\1\2", text, flags=re.M)
        (out / name).write_text(text, encoding="utf-8")
        pages.append(out / name)

    # docs/README.md is the docs index; in the site the root README is the home page (index.md).
    write(
        "index.md",
        _relink(
            (REPO / "README.md").read_text(encoding="utf-8"),
            [("docs/README.md", "guide.md"), ("docs/", "")],
        ),
    )
    inside = [("../README.md", "index.md"), ("README.md", "guide.md"), ("../", "")]
    for page in sorted(DOCS.glob("*.md")):
        name = "guide.md" if page.name == "README.md" else page.name
        write(name, _relink(page.read_text(encoding="utf-8"), inside))
    for name in TOP:
        write(name, (REPO / name).read_text(encoding="utf-8"))
    return pages


if __name__ == "__main__":
    written = stage(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "var" / "docs-src")
    print(f"{len(written)} pages staged")
