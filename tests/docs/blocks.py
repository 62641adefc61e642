"""The fenced code blocks of README.md and docs/*.md, and what each one's fence says to do.

A fence's info string is a language and tags: ```` ```sh ```` (run it), ```` ```sh norun ````
(check only that its make targets, manage.py commands and CLI flags exist), ```` ```python ````,
```` ```json import=steplab ```` (a row of that import format), ```` ```json export=trl ````
(rows an export of docs/examples/two_solutions.jsonl writes), ```` ```json response ```` (what
the runnable block before it prints), ```` ```json params=rollout ```` (an auto-label source's
params). The tests in this folder hold every block to its tags; a block with no tag that says
how to check it fails them.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
SHELL = {"sh", "bash", "shell", "console"}
LANGUAGES = SHELL | {"python", "json", "yaml", "text"}


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    lang: str
    tags: dict[str, str] = field(default_factory=dict)
    text: str = ""

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"

    @property
    def runs(self) -> bool:
        return "norun" not in self.tags


def doc_files() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def parse_info(info: str) -> tuple[str, dict[str, str]]:
    words = info.split()
    if not words:
        return "", {}
    tags = {}
    for word in words[1:]:
        key, _, value = word.partition("=")
        tags[key] = value
    return words[0], tags


def blocks_in(path: Path) -> list[Block]:
    """Every fenced block of one Markdown file (indented fences too, as inside list items)."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence = len(match["indent"]), match["fence"]
        lang, tags = parse_info(match["info"])
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        if j == len(lines):
            raise AssertionError(f"{path}:{i + 1}: unclosed code fence")
        found.append(Block(path, i + 1, lang, tags, "\n".join(body) + "\n"))
        i = j + 1
    return found


def all_blocks() -> list[Block]:
    return [block for path in doc_files() for block in blocks_in(path)]


def commands(text: str) -> list[str]:
    """The commands of a shell block: continuation lines joined, comments and blanks dropped."""
    joined = re.sub(r"\\\n\s*", " ", text)
    out: list[str] = []
    pending = ""
    for line in joined.splitlines():
        if not pending and (not line.strip() or line.strip().startswith("#")):
            continue
        pending = f"{pending}\n{line}" if pending else line.strip()
        try:
            split_command(pending)
        except ValueError:  # a quoted string goes on over the next line
            continue
        out.append(pending)
        pending = ""
    if pending:
        raise ValueError(f"unclosed quote in {pending!r}")
    return out


def split_command(command: str) -> list[str]:
    """shlex words of one command line, with a trailing `# comment` removed."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=False)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)
