"""Cutting text into sentences (the `sentence` step rule), in time linear in the text.

A sentence ends at `.`, `!` or `?` (closing quotes and brackets stay with it) followed by
white space, and at every line break. Not at:

- an abbreviation: "e.g.", "i.e.", "Dr.", "Mr.", "vs.", "cf.", "et al." ..., and "No.",
  "Fig.", "Eq.", "p." before a number;
- a number's decimal point ("3.14" has no space after the point);
- a numbered list's marker: "1." or "a." at the start of a line, or "Step 2." / "Case 3.";
- a point followed by a lower-case word ("it costs approx. five", "etc. and so on"), or by
  something that does not open a sentence ("5! = 120", "x. = y");
- anything inside math or code: `$...$`, `$$...$$`, `\\(...\\)`, `\\[...\\]` and ``` fences.

Math is found as Markdown renderers find it: `\\$` is a dollar, an inline `$` opens math only
when a non-space follows it and closes it only when a non-space precedes it and no digit
follows it ("$5 and $6" is money), and inline math never spans a blank line. An opener
without its closer is plain text. Every closer is searched for at most once from each
position onwards (`_Finder`), so the whole scan is linear.
"""

import re
from collections.abc import Callable

# The sentence ends that could be one: a run of . ! ? (bounded, so a long run of points is
# still linear), closing quotes or brackets, then white space or the end of the text.
_END = re.compile(r"[.!?]{1,8}[\"'”’)\]]{0,4}(?=\s|\Z)|\n")
_OPENERS = re.compile(r"\\\$|\$\$|\$|\\\[|\\\(|```")
_CLOSERS = {"$$": "$$", "\\[": "\\]", "\\(": "\\)", "```": "```"}
# Abbreviations after which a point never ends a sentence (lower-cased, inner points kept).
_ALWAYS = frozenset(
    [
        "e.g",
        "i.e",
        "dr",
        "mr",
        "mrs",
        "ms",
        "prof",
        "sr",
        "jr",
        "st",
        "vs",
        "cf",
        "al",
        "approx",
        "resp",
        "viz",
        "mt",
        "ca",
        "est",
        "w.r.t",
        "a.k.a",
        "u.s",
        "ph.d",
    ]
)
# ...and those that do not end one before a number or a bracket ("No. 5", "Eq. (3)").
_BEFORE_NUMBER = frozenset(
    [
        "no",
        "nos",
        "fig",
        "figs",
        "eq",
        "eqs",
        "sec",
        "ch",
        "p",
        "pp",
        "vol",
        "thm",
        "lem",
        "def",
        "prop",
        "ex",
    ]
)
_ROMAN = frozenset(["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"])
# Words that number a part of a solution: "Step 2." is a marker, not a sentence.
_MARKER_WORDS = frozenset(
    ["step", "case", "part", "stage", "phase", "example", "method", "option", "claim", "lemma"]
)
_WORD_BACK = 12  # how far back an abbreviation is looked for
_BLANKS = re.compile(r"[ \t]*")
_NEVER = 1 << 62  # past any text's end
_OPENS = "\"'“‘([{$\\*#`"


class _Finder:
    """The next match of a closer at or after a position; positions asked only grow, so each
    closer's search resumes where it stopped and the text is read once per closer."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._last: dict[str, tuple[int, int]] = {}  # closer -> (searched from, found at)

    def find(self, needle: str, start: int, valid: Callable[[int], bool] | None = None) -> int:
        since, hit = self._last.get(needle, (-1, -2))
        if since <= start and (hit == -1 or hit >= start):
            return hit  # nothing valid between `since` and `hit`: still the next one
        at = start
        while True:
            hit = self.text.find(needle, at)
            if hit == -1 or valid is None or valid(hit):
                break
            at = hit + 1
        self._last[needle] = (start, hit)
        return hit


def math_spans(text: str) -> list[tuple[int, int]]:
    """The [start, end) spans of math and code in `text`, in order, not overlapping."""
    finder = _Finder(text)
    n = len(text)

    def inline_closer(at: int) -> bool:
        return (
            not text[at - 1].isspace()
            and text[at - 1] != "\\"
            and not (at + 1 < n and text[at + 1].isdigit())
        )

    spans: list[tuple[int, int]] = []
    pos = 0
    while match := _OPENERS.search(text, pos):
        opener, start, pos = match.group(), match.start(), match.end()
        if opener == "\\$":
            continue
        if opener == "$":
            if pos >= n or text[pos].isspace():
                continue
            end = finder.find("$", pos + 1, inline_closer)
            blank = finder.find("\n\n", pos)
            if end == -1 or (blank != -1 and blank < end):
                continue
            closer = "$"
        else:
            closer = _CLOSERS[opener]
            end = finder.find(closer, pos)
            if end == -1:
                continue
        pos = end + len(closer)
        spans.append((start, pos))
    return spans


def _word_before(text: str, at: int) -> str:
    """The letters and inner points right before position `at` (the abbreviation candidate)."""
    start = at
    while start > max(0, at - _WORD_BACK) and (text[start - 1].isalpha() or text[start - 1] == "."):
        start -= 1
    return text[start:at].lower()


def _list_marker(text: str, at: int) -> bool:
    """The point at `at` ends a list marker: "1." / "a." / "iv." at the start of a line, or a
    number after a capitalized marker word ("Step 2.", "Case 3.")."""
    start = at
    while start > max(0, at - 4) and text[start - 1].isdigit():
        start -= 1
    number = start < at
    if not number:  # a single letter or a roman numeral
        word = _word_before(text, at)
        if not (len(word) == 1 or word in _ROMAN):
            return False
        start = at - len(word)
    before = start
    while before > max(0, start - _WORD_BACK) and text[before - 1] in " \t":
        before -= 1
    if before == 0 or text[before - 1] == "\n":
        return True
    word = _word_before(text, before)
    return number and word in _MARKER_WORDS and text[before - len(word)].isupper()


def _ends_sentence(text: str, match: re.Match, next_at: int) -> bool:
    if next_at >= len(text):
        return True
    first = text[next_at]
    if first.islower() or not (first.isalnum() or first in _OPENS):
        return False
    run = match.group().rstrip("\"'”’)]")
    if run != ".":  # "?", "!", "...": a sentence end unless a number's factorial
        return not (run == "!" and text[match.start() - 1 : match.start()].isdigit())
    point = match.start()
    word = _word_before(text, point)
    if word in _ALWAYS:
        return False
    if word in _BEFORE_NUMBER and (first.isdigit() or first == "("):
        return False
    return not _list_marker(text, point)


def split_sentences(text: str) -> list[str]:
    """`text` cut into sentences (see the module's docstring), stripped, empties dropped."""
    spans = [*math_spans(text), (_NEVER, _NEVER)]  # a last span no position reaches
    n = len(text)
    cuts = [0]
    span_start, span_end = spans[0]
    span_at = 0
    for match in _END.finditer(text):
        at = match.start()
        while span_end <= at:
            span_at += 1
            span_start, span_end = spans[span_at]
        if span_start <= at:
            continue  # inside math or code
        end = match.end()
        if text[at] == "\n":
            cuts.append(end)
            continue
        next_at = _BLANKS.match(text, end).end()
        if next_at < n and text[next_at] in "\r\n":
            cuts.append(end)  # the line break cuts there anyway
        elif _ends_sentence(text, match, next_at):
            cuts.append(end)
    cuts.append(n)
    parts = (text[a:b].strip() for a, b in zip(cuts, cuts[1:], strict=False))
    return [part for part in parts if part]
