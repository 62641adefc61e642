"""Is a quote in its document? Exact, else after normalising case, whitespace, quote marks
and dashes; an elided quote ("a ... b", "a … b") must have its parts in order."""

from __future__ import annotations

import difflib
import re
import unicodedata

_TRANSLATE = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u00a0": " ",
    }
)
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…|\[\.\.\.\])\s*")
_SENTENCE = re.compile(r"[^\n.!?;]+[.!?;]?")


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_TRANSLATE).casefold()
    return " ".join(text.split())


def _normalized_with_map(text: str) -> tuple[str, list[int]]:
    """The normalized text and, per normalized character, its offset in `text`."""
    out: list[str] = []
    where: list[int] = []
    space = True  # drop leading whitespace
    for i, ch in enumerate(text):
        piece = normalize(ch) if not ch.isspace() else " "
        if piece == " " or piece == "":
            if not space and piece == " ":
                out.append(" ")
                where.append(i)
                space = True
            continue
        for p in piece:
            out.append(p)
            where.append(i)
        space = False
    return "".join(out), where


def find_quote(document: str, quote: str) -> tuple[int, int, str] | None:
    """(start, end, how) of the quote in the document: how is "exact" or "normalized";
    None when it is not there."""
    if (at := document.find(quote)) >= 0:
        return at, at + len(quote), "exact"
    haystack, where = _normalized_with_map(document)
    parts = [normalize(p) for p in _ELLIPSIS.split(quote) if normalize(p)]
    if not parts:
        return None
    pos, first = 0, None
    for part in parts:
        at = haystack.find(part, pos)
        if at < 0:
            return None
        first = at if first is None else first
        pos = at + len(part)
    assert first is not None
    return where[first], where[pos - 1] + 1, "normalized"


def closest_passage(document: str, quote: str, *, limit: int = 400) -> str | None:
    """The document's sentence most like the quote (for the evidence of a quote not found)."""
    sentences = [s.strip() for s in _SENTENCE.findall(document[:200_000]) if s.strip()]
    if not sentences:
        return None
    target = normalize(quote)
    best = max(
        sentences[:2000],
        key=lambda s: difflib.SequenceMatcher(None, normalize(s), target, autojunk=False).ratio(),
    )
    return best if len(best) <= limit else best[: limit - 1] + "…"
