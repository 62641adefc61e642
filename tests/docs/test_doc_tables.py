"""`make bench-label-quality` rewrites docs/benchmarks.md's label-quality tables, nothing else."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import PROCESSBENCH
from tests.docs.blocks import REPO

sys.path.insert(0, str(REPO / "bench"))
import doc_tables  # noqa: E402

PAGE = REPO / "docs" / "benchmarks.md"
PAGE_TEXT = "# B\n\nprose\n\n<!-- t:begin (generated) -->\n| old |\n<!-- t:end -->\n\nafter\n"


def test_splice_replaces_only_the_marked_part() -> None:
    out = doc_tables.splice(PAGE_TEXT, "t", "| new |\n| rows |\n\n")
    assert out == PAGE_TEXT.replace("| old |\n", "| new |\n| rows |\n")
    assert doc_tables.splice(out, "t", "| old |") == PAGE_TEXT  # and back, byte for byte


@pytest.mark.parametrize(
    "page",
    [PAGE_TEXT.replace("<!-- t:end -->\n", ""), PAGE_TEXT + PAGE_TEXT, "no markers\n"],
)
def test_splice_refuses_missing_or_repeated_markers(page: str) -> None:
    with pytest.raises(ValueError, match="expected one"):
        doc_tables.splice(page, "t", "| x |")


def test_make_target_writes_docs_benchmarks() -> None:
    dry = subprocess.run(
        ["make", "-n", "-o", ".venv/.installed-stamp", "bench-label-quality"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "bench/label_quality.py --markdown > var/label_quality.md" in dry
    assert "bench/doc_tables.py docs/benchmarks.md label-quality var/label_quality.md" in dry


def test_the_harness_tables_land_between_the_page_markers(tmp_path, capsys) -> None:
    """The real pipeline on three ProcessBench rows, into a copy of docs/benchmarks.md."""
    import label_quality

    label_quality.main(
        ["--data", str(PROCESSBENCH), "--sources", "symbolic", "--limit", "3", "--markdown"]
    )
    tables = capsys.readouterr().out
    generated = tmp_path / "label_quality.md"
    generated.write_text(tables, encoding="utf-8")
    page = tmp_path / "benchmarks.md"
    before = PAGE.read_text(encoding="utf-8")
    page.write_text(before, encoding="utf-8")

    assert doc_tables.main([str(page), "label-quality", str(generated)]) == 0

    after = page.read_text(encoding="utf-8")
    assert "| symbolic | processbench_sample | 3 |" in after
    head, _, rest = before.partition("<!-- label-quality:begin")
    _, _, tail = rest.partition("<!-- label-quality:end -->")
    assert after.startswith(head) and after.endswith(tail)  # the prose is kept
    # The tables in the page today have the shape the harness prints.
    first = tables.splitlines()[0]
    assert first in before.partition("<!-- label-quality:begin")[2].split("\n", 2)[1]


def test_symbolic_kinds_target_stores_the_table_and_writes_readme_and_benchmarks() -> None:
    dry = subprocess.run(
        ["make", "-n", "-o", ".venv/.installed-stamp", "bench-symbolic-kinds"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "bench/symbolic_refutations.py --dev --calibrate" in dry
    assert "bench/doc_tables.py README.md symbolic-kinds var/symbolic_kinds_readme.md" in dry
    assert "bench/doc_tables.py docs/benchmarks.md symbolic-kinds var/symbolic_kinds.md" in dry
    for page in ("README.md", "docs/benchmarks.md"):
        text = (REPO / page).read_text(encoding="utf-8")
        assert doc_tables.splice(text, "symbolic-kinds", "| x |")  # one pair of markers each
