"""One tokenizer for LaTeX math and for plain-text arithmetic in prose.

``mode="math"`` reads the inside of a math segment: letters are single-letter identifiers
(``xy`` is ``x*y``) and ``^23`` raises to ``2`` only (TeX takes one token). ``mode="prose"``
reads running text: letters form words, which the claim finder later turns into units,
variables or boundaries.

Two placeholder characters stand in for characters that LaTeX would misread in prose:
``PCT_MARK`` for an unescaped ``%`` (a comment in LaTeX) and ``CUR_MARK`` for a ``$`` that
is a currency sign, not a math delimiter. They keep string positions unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction

PCT_MARK = "\ue000"
CUR_MARK = "\ue001"

NUM = "NUM"
IDENT = "IDENT"
WORD = "WORD"
OP = "OP"  # + - * /
POW = "POW"
SUB = "SUB"
FACT = "FACT"
PCT = "PCT"
CUR = "CUR"
LP = "LP"
RP = "RP"
LB = "LB"
RB = "RB"
CMD = "CMD"
REL = "REL"  # value: "=", "~" (approximately), "<" (any order relation), "other"
SEP = "SEP"  # , ; : & \\ \quad and implication arrows
ELLIPSIS = "ELLIPSIS"
PUNCT = "PUNCT"
SPACE = "SPACE"
OTHER = "OTHER"
UNIT = "UNIT"  # made by the claim finder from words and \text{...}: value = unit name


# A "**" between a number (or a closing parenthesis) and a number, spaced alike on both sides
# ("2 ** 3", "2**3"): Python's power, as models write plain-text math (issue 25, round 14).
# Markdown bold opens before a word and closes after one ("**15** (3 * 5)"), never with the
# same spacing and a number on both sides.
_POWER_AFTER = re.compile(r"(?: ?)(?:\(?-?\d|\d)")


_PLAIN_SQRT = re.compile(r"sqrt(?=\()", re.IGNORECASE)


def _python_power(text: str, i: int, prev: Token | None) -> bool:
    if prev is None or not (prev.kind == NUM or (prev.kind == RP and prev.text.endswith(")"))):
        return False
    space_before = text[i - 1 : i] == " "
    space_after = text[i + 2 : i + 3] == " "
    if space_before != space_after:
        return False
    return _POWER_AFTER.match(text, i + 2) is not None


@dataclass
class Token:
    kind: str
    text: str
    start: int
    end: int
    value: str = ""  # normalized payload: operator symbol, relation kind, command name, ...
    number: Fraction | None = None
    decimals: int | None = None  # digits after the point; None for an integer literal
    space_before: bool = False
    newline: bool = False  # SPACE tokens only

    def __repr__(self) -> str:  # compact, for debugging and test messages
        return f"{self.kind}({self.text!r})"


_NUMBER = re.compile(
    # 1,000 1{,}000 10,\!080 and 1\,000 (a thin space between groups of three digits)
    r"\d{1,3}(?:(?:,|\{,\}|,\\!|,\\,|\\,|\\!)\d{3})+(?:\.\d+)?(?![\d])"
    r"|\d+\.\d+|\d+|\.\d+"
)
_THOUSANDS_BAD = re.compile(r",\d")  # "1,000,5": a list, not thousands

_RELATIONS = {
    "=": "=",
    "\u2248": "~",  # ≈
    "\u2245": "~",
    "\u223c": "~",
    "<": "<",
    ">": "<",
    "\u2264": "<",
    "\u2265": "<",
    "\u2260": "other",  # ≠
    "\u2261": "other",  # ≡
}
_REL_COMMANDS = {
    "approx": "~",
    "sim": "~",
    "simeq": "~",
    "cong": "~",
    "doteq": "~",
    "thickapprox": "~",
    "lt": "<",
    "gt": "<",
    "le": "<",
    "leq": "<",
    "ge": "<",
    "geq": "<",
    "leqslant": "<",
    "geqslant": "<",
    "ll": "<",
    "gg": "<",
    "ne": "other",
    "neq": "other",
    "equiv": "other",
    "propto": "other",
    "in": "other",
    "notin": "other",
    "subset": "other",
    "subseteq": "other",
    "mid": "other",
    "nmid": "other",
    "perp": "other",
    "parallel": "other",
}
_SEP_COMMANDS = {
    "quad",
    "qquad",
    "Rightarrow",
    "Leftarrow",
    "Leftrightarrow",
    "implies",
    "impliedby",
    "iff",
    "to",
    "rightarrow",
    "longrightarrow",
    "Longrightarrow",
    "therefore",
    "because",
    "text_sep",
    "\\",
    "newline",
    "hline",
}
_OP_COMMANDS = {"times": "*", "cdot": "*", "ast": "*", "div": "/", "centerdot": "*"}
_ELLIPSIS_COMMANDS = {"dots", "ldots", "cdots", "vdots", "ddots", "dotsc", "dotsb", "dotsm"}
_SPACE_COMMANDS = {",", ";", "!", " ", ":", ">", "thinspace", "medspace", "thickspace", "enspace"}
_UNICODE_OPS = {
    "+": "+",
    "-": "-",
    "\u2212": "-",  # − minus sign
    "\u2013": "-",  # – en dash, written as a minus in GSM8K ("72 days – 3 days")
    "*": "*",
    "\u00d7": "*",  # ×
    "\u22c5": "*",  # ⋅
    "\u00b7": "*",  # ·
    "\u2219": "*",
    "/": "/",
    "\u00f7": "/",  # ÷
}
_PUNCT = set(".?!\"'`\u2019\u201c\u201d")
_LETTER = re.compile(r"[A-Za-z]")
_WORD = re.compile(r"[A-Za-z]+(?:['\u2019][A-Za-z]+)*(?:-[A-Za-z]+)*")


def _number_token(m: re.Match[str], start: int, space: bool) -> Token:
    raw = m.group(0)
    clean = raw.replace("{,}", "").replace("\\!", "").replace("\\,", "").replace(",", "")
    decimals = len(clean.split(".", 1)[1]) if "." in clean else None
    return Token(NUM, raw, start, m.end(), clean, Fraction(clean), decimals, space_before=space)


EXCLAIMED = "!?"  # a FACT token's value where the "!" may end a sentence
_SENTENCE_END = re.compile(r"\s*$|\s*\n|\s+[A-Z]|\s*[)\"']")


def tokenize(text: str, mode: str = "math") -> list[Token]:
    """Split ``text`` into tokens. Never raises; unknown characters become OTHER."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    space = False
    while i < n:
        ch = text[i]
        if ch == "~" and mode == "prose":  # "~50 people": approximately
            tokens.append(Token(REL, ch, i, i + 1, "~", space_before=space))
            i, space = i + 1, False
            continue
        if ch.isspace() or (ch == "~" and mode == "math"):  # TeX's tie is a space
            j = i
            while j < n and (text[j].isspace() or (text[j] == "~" and mode == "math")):
                j += 1
            chunk = text[i:j]
            tokens.append(Token(SPACE, chunk, i, j, newline="\n" in chunk))
            i, space = j, True
            continue
        start = i
        tok: Token | None = None
        prev = tokens[-1] if tokens else None
        after_script = mode == "math" and prev is not None and prev.kind in (POW, SUB) and not space
        if ch.isdecimal() or (ch == "." and i + 1 < n and text[i + 1].isdecimal()):
            if after_script and ch.isdecimal():
                tok = Token(NUM, ch, i, i + 1, ch, Fraction(int(ch)), None, space_before=space)
            else:
                m = _NUMBER.match(text, i)
                assert m is not None
                if "," in m.group(0) and _THOUSANDS_BAD.search(text, m.end(), m.end() + 2):
                    m = re.compile(r"\d+").match(text, i)
                    assert m is not None
                tok = _number_token(m, i, space)
        elif ch == "\\":
            tok = _command(text, i, space)
        elif _PLAIN_SQRT.match(text, i) and not (i and text[i - 1].isalpha()):
            # "2sqrt(18) = 6sqrt(2)": the root as plain text writes it, not s·q·r·t or a unit
            tok = Token(CMD, text[i : i + 4], i, i + 4, "sqrt", space_before=space)
        elif _LETTER.match(ch):
            if mode == "math":
                tok = Token(IDENT, ch, i, i + 1, ch, space_before=space)
            else:
                m = _WORD.match(text, i)
                assert m is not None
                tok = Token(WORD, m.group(0), i, m.end(), m.group(0).lower(), space_before=space)
        elif ch == "." and text.startswith("...", i):
            tok = Token(ELLIPSIS, "...", i, i + 3, space_before=space)
        elif ch == "\u2026":
            tok = Token(ELLIPSIS, ch, i, i + 1, space_before=space)
        elif ch == "*" and text.startswith("**", i):
            if _python_power(
                text, i, next((t for t in reversed(tokens) if t.kind != SPACE), None)
            ):  # "2 ** 3": a power as code writes it
                tok = Token(POW, "**", i, i + 2, space_before=space)
            else:
                tok = Token(PUNCT, "**", i, i + 2, "**", space_before=space)  # markdown bold
        elif ch in _UNICODE_OPS:
            tok = Token(OP, ch, i, i + 1, _UNICODE_OPS[ch], space_before=space)
        elif ch == ":" and text.startswith(":=", i):
            tok = Token(REL, ":=", i, i + 2, "other", space_before=space)
        elif ch in _RELATIONS:
            kind = _RELATIONS[ch]
            if ch in "<>" and text.startswith("=", i + 1):
                tok = Token(REL, text[i : i + 2], i, i + 2, "<", space_before=space)
            elif ch == "=" and text.startswith("=", i + 1):
                tok = Token(REL, "==", i, i + 2, "other", space_before=space)  # code
            else:
                tok = Token(REL, ch, i, i + 1, kind, space_before=space)
        elif ch == "^":
            tok = Token(POW, ch, i, i + 1, space_before=space)
        elif ch == "_":
            tok = Token(SUB, ch, i, i + 1, space_before=space)
        elif ch == "!" and space and text.startswith("=", i + 1) and text[i + 2 : i + 3].isspace():
            # " != " between spaces: the not-equal of code ("7 != 8"); a factorial is written
            # against its number ("3!=6", "c !=d !")
            tok = Token(REL, "!=", i, i + 2, "other", space_before=space)
        elif ch == "!":
            # in prose, a "!" that ends a sentence may be an exclamation mark ("2 + 2 = 4!"):
            # value EXCLAIMED, a choice point for the parser (symbolic-1.12)
            ends = mode == "prose" and _SENTENCE_END.match(text, i + 1) is not None
            tok = Token(FACT, ch, i, i + 1, EXCLAIMED if ends else "", space_before=space)
        elif ch in ("%", PCT_MARK):
            tok = Token(PCT, ch, i, i + 1, space_before=space)
        elif ch in ("$", CUR_MARK):
            tok = Token(CUR, ch, i, i + 1, "$", space_before=space)
        elif ch in "([":
            tok = Token(LP, ch, i, i + 1, ch, space_before=space)
        elif ch in ")]":
            tok = Token(RP, ch, i, i + 1, ch, space_before=space)
        elif ch == "{":
            tok = Token(LB, ch, i, i + 1, space_before=space)
        elif ch == "}":
            tok = Token(RB, ch, i, i + 1, space_before=space)
        elif ch in ",;:&":
            tok = Token(SEP, ch, i, i + 1, ch, space_before=space)
        elif ch == "\u00b0":  # °
            tok = Token(CMD, ch, i, i + 1, "circ", space_before=space)
        elif ch == "\u221a":  # √
            tok = Token(CMD, ch, i, i + 1, "sqrt", space_before=space)
        elif ch == "\u03c0":  # π
            tok = Token(CMD, ch, i, i + 1, "pi", space_before=space)
        elif ch in _PUNCT:
            tok = Token(PUNCT, ch, i, i + 1, ch, space_before=space)
        else:
            tok = Token(OTHER, ch, i, i + 1, ch, space_before=space)
        tokens.append(tok)
        i = tok.end if tok.end > start else start + 1
        space = False
    return tokens


def _command(text: str, i: int, space: bool) -> Token:
    m = re.compile(r"\\([A-Za-z]+)\*?").match(text, i)
    if m is None:  # a control symbol: \, \% \$ \{ \\ ...
        sym = text[i + 1 : i + 2]
        end = i + 2
        if sym == "%":
            return Token(PCT, "\\%", i, end, space_before=space)
        if sym == "$":
            return Token(CUR, "\\$", i, end, "$", space_before=space)
        if sym == "{":
            return Token(OTHER, "\\{", i, end, "set", space_before=space)
        if sym == "}":
            return Token(OTHER, "\\}", i, end, "set", space_before=space)
        if sym == "\\":
            return Token(SEP, "\\\\", i, end, "\\\\", space_before=space)
        if sym in _SPACE_COMMANDS or sym == "":
            return Token(SPACE, text[i:end], i, end)
        if sym == "|":
            return Token(OTHER, "\\|", i, end, "|", space_before=space)
        return Token(OTHER, text[i:end], i, end, sym, space_before=space)
    name = m.group(1)
    end = m.end()
    raw = text[i:end]
    if name in _OP_COMMANDS:
        return Token(OP, raw, i, end, _OP_COMMANDS[name], space_before=space)
    if name in _REL_COMMANDS:
        return Token(REL, raw, i, end, _REL_COMMANDS[name], space_before=space)
    if name in _SEP_COMMANDS:
        return Token(SEP, raw, i, end, name, space_before=space)
    if name in _ELLIPSIS_COMMANDS:
        return Token(ELLIPSIS, raw, i, end, name, space_before=space)
    if name in _SPACE_COMMANDS:
        return Token(SPACE, raw, i, end)
    if name in ("left", "right", "bigl", "bigr", "Bigl", "Bigr", "big", "Big", "bigg", "Bigg"):
        # \left( -> "(", \left. -> nothing; \left| -> an OTHER bar (absolute value)
        nxt = text[end : end + 1]
        if nxt in "([":
            return Token(LP, raw + nxt, i, end + 1, nxt, space_before=space)
        if nxt in ")]":
            return Token(RP, raw + nxt, i, end + 1, nxt, space_before=space)
        if nxt == ".":
            return Token(SPACE, raw + nxt, i, end + 1)
        if text.startswith("\\{", end) or text.startswith("\\}", end):
            return Token(OTHER, raw + text[end : end + 2], i, end + 2, "set", space_before=space)
        return Token(CMD, raw, i, end, name, space_before=space)
    return Token(CMD, raw, i, end, name, space_before=space)


class Unwrapper:
    """Drops the ``\\cmd{`` and matching ``}`` of unwrapped groups (``\\boxed{x}`` reads ``x``)
    for a loop that walks tokens once, keeping track of brace depth."""

    def __init__(self, commands: Collection[str]) -> None:
        self.commands = commands
        self.depth = 0
        self._closes: list[int] = []  # depths of unwrapped groups whose RB must be dropped

    def opens(self, tokens: list[Token], i: int) -> bool:
        """Whether ``tokens[i]`` starts an unwrapped group (then skip it and its LB)."""
        tok = tokens[i]
        if tok.kind != CMD or tok.value not in self.commands:
            return False
        if i + 1 >= len(tokens) or tokens[i + 1].kind != LB:
            return False
        self.depth += 1
        self._closes.append(self.depth)
        return True

    def keeps(self, tok: Token) -> bool:
        """Counts a brace; False for the RB that closes an unwrapped group."""
        if tok.kind == LB:
            self.depth += 1
        elif tok.kind == RB:
            if self._closes and self._closes[-1] == self.depth:
                self._closes.pop()
                self.depth -= 1
                return False
            self.depth -= 1
        return True
