"""Congruences between whole numbers, decided exactly: ``53 \\equiv 5 \\pmod{8}``.

* ``congruence``: a chain of integer expressions joined by ``\\equiv`` (or ``≡``) and closed
  by a literal modulus: ``\\pmod{8}``, ``\\pmod 8``, ``\\mod{8}``, ``(\\mod 8)``, ``(mod 8)``,
  ``modulo 8``.
  Every link of the chain must hold modulo that number ("-4 \\equiv -1 \\equiv 2 \\pmod{3}").

Only numbers are read: digits, ``+ - * ^``, ``\\cdot``, ``\\times``, parentheses and braces.
A chain with a symbol ("7x \\equiv 3", "2k \\equiv 46", "i^2 \\equiv -1"), a division, a
``\\not\\equiv``, or a symbolic modulus (``\\pmod{n}``) reads nothing, and so does a chain whose
first number continues an expression before it ("x - 4 \\equiv 1"). Values are computed
modulo the modulus (``pow`` with a modulus), exponents up to 10^6.

check.py treats a step about modular arithmetic as hedged for its equalities ("= " may mean
"≡"); a congruence is the claim that setting makes, so only the words around it hedge it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from autolabel.symbolic.compare import Decision
from autolabel.symbolic.statements import Statement, plain_view, shown

KIND = "congruence"
MAX_MODULUS = 10**12
MAX_EXPONENT = 10**6

_EQUIV = r"(?:\\equiv|\u2261)"
# A term: digits, operators, parentheses, braces, \cdot / \times, spaces (checked by parsing),
# ending in a digit or a bracket (one way to split "1 \equiv 1" into terms: no backtracking
# blow-up); at most 62 characters and 8 links, so long runs of digits read in linear time.
_TERM = r"(?:-[ \t]*)?[\d({](?:(?:[\d\s+\-*^(){}]|\\cdot|\\times){0,60}?[\d)}])?"
_MODULUS = (
    r"(?:\\[ ,;]|\\q?quad)*\s*\(?\s*"
    r"(?:\\pmod|\\bmod|\\mod|\\text\{\s*mod\s*\}|\\operatorname\{mod\}|modulo|mod)"
    r"\s*(?:\{\s*(?P<m1>\d+)\s*\}|(?P<m2>\d+))(?!\d)\s*\)?"
)
_HAS_EQUIV = re.compile(_EQUIV)
_CHAIN = re.compile(
    rf"(?P<chain>{_TERM}(?:\s*{_EQUIV}\s*{_TERM}){{1,8}})\s*,?\s*{_MODULUS}",
)


def _value(node: ast.AST, modulus: int) -> int:
    """``node``'s value modulo ``modulus`` (ValueError where it is not plain integer math)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value % modulus
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _value(node.operand, modulus)
        return (-inner if isinstance(node.op, ast.USub) else inner) % modulus
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Pow):
            exponent = _exact(node.right)
            if not 0 <= exponent <= MAX_EXPONENT:
                raise ValueError("exponent out of range")
            return pow(_value(node.left, modulus), exponent, modulus)
        left, right = _value(node.left, modulus), _value(node.right, modulus)
        if isinstance(node.op, ast.Add):
            return (left + right) % modulus
        if isinstance(node.op, ast.Sub):
            return (left - right) % modulus
        if isinstance(node.op, ast.Mult):
            return (left * right) % modulus
    raise ValueError("not integer arithmetic")


def _exact(node: ast.AST) -> int:
    """A small exponent's exact value: a literal, or a sum / product of literals."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult):
        left, right = _exact(node.left), _exact(node.right)
        if max(abs(left), abs(right)) > MAX_EXPONENT:
            raise ValueError("exponent out of range")
        if isinstance(node.op, ast.Add):
            return left + right
        return left - right if isinstance(node.op, ast.Sub) else left * right
    raise ValueError("not a whole exponent")


def _python(term: str) -> str:
    text = re.sub(r"\\cdot|\\times", "*", term).replace("{", "(").replace("}", ")")
    if re.search(r"\d\s*\(|\)\s*[\d(]", text):
        raise ValueError("implicit product")  # "2(3)": read nothing rather than guess
    return text.replace("^", "**")


def _parse(term: str) -> ast.AST:
    return ast.parse(_python(term.strip()), mode="eval").body


# Words that end a phrase of prose before a chain written without math delimiters.
_PROSE = frozenset(
    re.findall(
        r"\w+",
        "and so then thus hence since as because but have has get gives gets obtain find see "
        "know note that is are we also therefore which where",
    )
)
_OPENER = re.compile(r"(?<!\\)\$|\\\(|\\\[")


def _starts_fresh(prepared: str, plain: str, start: int) -> bool:
    """Nothing before the chain ties its first number to a larger expression."""
    before = plain[max(0, start - 40) : start]
    stripped = before.rstrip()
    if not stripped or stripped[-1] in "=,:;([":
        return True
    if re.search(r"\\(?:quad|qquad|Rightarrow|implies|therefore)\s*$", stripped):
        return True
    # A prose word ("and 6 \equiv 1 (mod 5)"), or any word with a math delimiter between it
    # and the chain ("have $53 \equiv 5$"); in "$xy - 5 \equiv 2$" the letters are a product
    # the chain's first term belongs to.
    word = re.search(r"(?<![\\A-Za-z])[A-Za-z]{2,}$", stripped)
    if not word:
        return False
    word_end = start - (len(before) - len(stripped))
    return word.group(0).lower() in _PROSE or bool(_OPENER.search(prepared, word_end, start))


def congruence_statements(prepared: str) -> Iterator[Statement]:
    if not _HAS_EQUIV.search(prepared):
        return
    plain = plain_view(prepared)
    for m in _CHAIN.finditer(plain):
        start = m.start("chain")
        while start < len(plain) and plain[start].isspace():
            start += 1
        if re.search(r"\\not\s*$", plain[max(0, start - 8) : start]) or "\\not" in m["chain"]:
            continue
        if not _starts_fresh(prepared, plain, start):
            continue
        modulus = int(m["m1"] or m["m2"])
        if not 2 <= modulus <= MAX_MODULUS:
            continue
        terms = re.split(_EQUIV, m["chain"])
        try:
            nodes = [_parse(t) for t in terms]
        except (SyntaxError, ValueError):
            continue
        yield Statement(
            KIND,
            shown(plain, start, m.end()),
            start,
            m.end(),
            " ≡ ".join(" ".join(t.split()) for t in terms),
            f"mod {modulus}",
            lambda nodes=nodes, terms=terms, modulus=modulus: _decide(nodes, terms, modulus),
        )


def _decide(nodes: list[ast.AST], terms: list[str], modulus: int) -> Decision:
    try:
        values = [_value(n, modulus) for n in nodes]
    except (ValueError, ZeroDivisionError):
        return Decision(None, "not plain integer arithmetic", kind=KIND)
    for i in range(len(values) - 1):
        a, b, ta, tb = values[i], values[i + 1], terms[i], terms[i + 1]
        if a != b:
            return Decision(
                False,
                f"{' '.join(ta.split())} is {a} and {' '.join(tb.split())} is {b} mod {modulus}",
                str(a),
                str(b),
                kind=KIND,
            )
    return Decision(True, f"congruent mod {modulus}", str(values[0]), str(values[-1]), kind=KIND)
