"""Write a benchmark's generated tables into a Markdown page, between its markers.

    .venv/bin/python bench/label_quality.py --markdown > var/label_quality.md
    .venv/bin/python bench/doc_tables.py docs/benchmarks.md label-quality var/label_quality.md

The page holds the generated part between a line starting `<!-- NAME:begin` and the line
`<!-- NAME:end -->`; everything else in the page (the prose that reads the numbers) is kept
byte for byte. `make bench-label-quality` runs both steps.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path


def splice(page: str, name: str, body: str) -> str:
    """`page` with the text between NAME's markers replaced by `body`."""
    begin = re.compile(rf"^<!-- {re.escape(name)}:begin\b.*-->\n", re.M)
    end = re.compile(rf"^<!-- {re.escape(name)}:end -->$", re.M)
    begins, ends = list(begin.finditer(page)), list(end.finditer(page))
    if len(begins) != 1 or len(ends) != 1:
        raise ValueError(
            f"expected one <!-- {name}:begin --> and one <!-- {name}:end --> line, "
            f"found {len(begins)} and {len(ends)}"
        )
    start, stop = begins[0].end(), ends[0].start()
    if stop < start:
        raise ValueError(f"<!-- {name}:end --> comes before <!-- {name}:begin -->")
    return page[:start] + body.strip("\n") + "\n" + page[stop:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", type=Path, help="the Markdown page to rewrite")
    parser.add_argument("name", help="the markers' name, e.g. label-quality")
    parser.add_argument("body", type=Path, help="the generated Markdown ('-': standard input)")
    args = parser.parse_args(argv)
    body = sys.stdin.read() if str(args.body) == "-" else args.body.read_text(encoding="utf-8")
    if not body.strip():
        parser.error(f"{args.body} is empty: the benchmark wrote nothing")
    page = args.page.read_text(encoding="utf-8")
    args.page.write_text(splice(page, args.name, body), encoding="utf-8")
    print(f"{args.page}: {args.name} rewritten ({len(body.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
