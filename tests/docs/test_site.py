"""The docs site's staging (docs/build_site.py): every page lands, its links point where the
pages land, and mkdocs.yml's nav names exactly those pages. The strict build itself is
`make docs-site` (mkdocs is not an app dependency, so the suite does not build the site)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml

from tests.docs.blocks import REPO

sys.path.insert(0, str(REPO / "docs"))
import build_site as docs_site  # noqa: E402


def nav_pages() -> set[str]:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    return {page for entry in config["nav"] for page in entry.values()}


@pytest.fixture(scope="module")
def staged(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "src"
    docs_site.stage(out)
    return out


def test_every_page_is_staged_and_in_the_nav(staged: Path) -> None:
    pages = {p.name for p in staged.glob("*.md")}
    expected = {"index.md", "guide.md", "ARCHITECTURE.md", "RELIABILITY.md"}
    expected |= {p.name for p in (REPO / "docs").glob("*.md") if p.name != "README.md"}
    assert pages == expected == nav_pages()
    assert (staged / "img" / "label-page.png").is_file()


def test_links_point_where_the_pages_land(staged: Path) -> None:
    problems = []
    for page in staged.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s#]+)", text):
            if re.match(r"[a-z]+://", target) or (staged / target).exists():
                continue
            problems.append(f"{page.name}: {target}")
    # Links into the code (examples/rl_reward.py) are the only ones that leave the site.
    assert not [p for p in problems if p.endswith(".md")], problems


def test_fences_keep_only_their_language(staged: Path) -> None:
    admins = (staged / "admins.md").read_text(encoding="utf-8")
    assert "```json import=steplab" in (REPO / "docs" / "admins.md").read_text(encoding="utf-8")
    assert "```json import=steplab" not in admins and "```json\n" in admins
    assert "](docs/" not in (staged / "index.md").read_text(encoding="utf-8")
