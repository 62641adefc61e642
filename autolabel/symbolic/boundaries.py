"""Where a formula's phrase begins: prose right before a formula that makes it part of a
larger phrase, so the formula alone is not what the sentence says something about.

* The object of a preposition or conjunction: in "the mean of $\\frac12$ and $\\frac78$ is
  $\\frac{11}{16}$", "the power of $2$ in $100!$ is $97$", "$9a - 1$ divided by $a$, which
  simplifies to $9 - \\frac1a$", what "is" or "simplifies to" is said of begins in the
  words, not at the last formula (:func:`object_of_words`).
* An operand of an operation written in words: "$10\\%$ of $\\$1.50 = 0.10 \\times \\$1.50$",
  "3 times $4 = 12$": the first side of the chain is the formula *and* the words before it
  (:func:`operand_of_words`), so the chain's first link is not a claim.
* Likewise a formula's last side that is a share of something named after it: "$200 \\cdot
  0.15 = 30 = 15\\%$ of $200$" (:func:`without_operated_side`): the last link is not a claim.
"""

from __future__ import annotations

import re
from dataclasses import replace

from autolabel.symbolic import ast
from autolabel.symbolic.chains import Chain
from autolabel.symbolic.tokens import PCT_MARK
from autolabel.symbolic.units import CONNECTORS

# Words after which a formula is the object of a larger noun phrase.
TIED_BEFORE = CONNECTORS | frozenset(
    {"the", "a", "an", "in", "and", "or", "for", "from", "between", "among"}
)
# Words after which a formula is the second operand of an operation in words.
OPERATOR_BEFORE = frozenset({"times", "by", "plus", "minus", "over"})
# A quantity right before "of": "10% of", "1/3 of", "$\frac13$ of", "half of", "twice".
_QUANTITY_OF = re.compile(
    r"(?:\d|%|\\%|" + PCT_MARK + r"|\}|\\\)|\$|\b(?:half|third|quarter|fifth|tenth|twice|"
    r"thrice|double|triple|thirds|quarters|fifths|tenths))\s*of\s*$",
    re.IGNORECASE,
)
_OPENERS = re.compile(r"(?:\$\$|\$|\\\(|\\\[|\s)*$")
_LAST_WORD = re.compile(r"([A-Za-z]+)\W*$")
_WORD_AT_END = re.compile(r"\b([A-Za-z]+)$")
REACH = 40
CLAUSE_REACH = 100
_CLAUSE_MARK = re.compile(r"[.:;!?,\n](?=\s|$)")


def _words_before(text: str, start: int) -> str:
    """The text before ``start`` with the math opener and spaces right before it removed."""
    before = text[max(0, start - REACH) : start]
    return before[: _OPENERS.search(before).start()]  # type: ignore[union-attr]


def word_before(text: str, start: int) -> str:
    """The last word before ``start`` (lower case), skipping a math opener; "" if none."""
    m = _LAST_WORD.search(text[max(0, start - REACH) : start])
    return m.group(1).lower() if m else ""


def object_of_words(text: str, start: int) -> bool:
    """The formula at ``start`` follows a preposition, a conjunction or an article."""
    return word_before(text, start) in TIED_BEFORE


def operand_of_words(text: str, start: int) -> bool:
    """The formula at ``start`` is the second operand of an operation written in words:
    "10% of $X", "3 times $X", "divided by $X"."""
    before = _words_before(text, start)
    if _QUANTITY_OF.search(before):
        return True
    m = _WORD_AT_END.search(before)
    return bool(m and m.group(1).lower() in OPERATOR_BEFORE)


def without_operand_side(chain: Chain, text: str, segment_start: int) -> Chain | None:
    """``chain`` less its first side when that side opens the math segment and is the
    operand of words before it ("10% of $\\$1.50 = 0.15$"); None when no link is left."""
    first = chain.sides[0]
    if text[segment_start : first.start].strip() or not operand_of_words(text, segment_start):
        return chain
    if len(chain.sides) < 3:
        return None
    return replace(chain, sides=chain.sides[1:], relations=chain.relations[1:])


# "of" right after a formula: "$15\\%$ of $200$", "$\\frac{1}{3}$ of the class".
_OF_AFTER = re.compile(r"^(?:\$\$|\$|\\\)|\\\]|\s)*of\b", re.IGNORECASE)


def without_operated_side(chain: Chain, text: str, segment_end: int) -> Chain | None:
    """``chain`` less its last side when that side is a percentage or a fraction that
    closes the math segment and "of" follows ("$30 = 15\\%$ of $200$": a share of something
    not in the formula); None when no link is left."""
    last = chain.sides[-1]
    if text[last.end : segment_end].strip() or not _OF_AFTER.match(text[segment_end:]):
        return chain
    if not isinstance(last.node, ast.Percent) and not _fraction(last.node):
        return chain
    if len(chain.sides) < 3:
        return None
    return replace(chain, sides=chain.sides[:-1], relations=chain.relations[:-1])


def _fraction(node: ast.Node | None) -> bool:
    return (
        isinstance(node, ast.Bin)
        and node.op == "/"
        and isinstance(node.a, ast.Num)
        and isinstance(node.b, ast.Num)
    )


# Words that may open a clause before its subject: "Therefore, $2 + 3$ is 5".
_DISCOURSE = frozenset(
    {
        "so", "thus", "hence", "therefore", "then", "now", "and", "but", "also", "finally",
        "next", "first", "second", "third", "here", "again", "clearly", "similarly",
        "likewise", "note", "that", "we", "see", "have", "get", "find", "indeed",
    }
)  # fmt: skip
# "the expression $E$ is ...": the formula names itself, so it is still the subject.
_APPOSITIVE = re.compile(
    r"^(?:the|this|that|our)\s+(?:(?:given|final|whole|entire|new|resulting|last|first)\s+)?"
    r"(?:expression|sum|product|value|result|quantity|difference|quotient|total|fraction|"
    r"term|calculation|computation|number|integer|answer)$"
)


def subject_of_clause(text: str, start: int) -> bool:
    """The formula at ``start`` is what its clause is about: nothing but discourse words
    before it in the clause ("Therefore, $X$ is 5"), or a head noun it is the apposition of
    ("the expression $X$ is 5"). Not "the sum of the digits of $X$ is 4", "the number of
    squares that divide $X$ is 36": there the clause is about a phrase around $X$."""
    before = text[max(0, start - CLAUSE_REACH) : start]
    before = before[: _OPENERS.search(before).start()]  # type: ignore[union-attr]
    marks = [m.end() for m in _CLAUSE_MARK.finditer(before)]
    clause = before[marks[-1] :] if marks else before
    if not marks and start > CLAUSE_REACH:
        return False  # a clause longer than we read
    words = re.findall(r"[A-Za-z]+", clause.lower())
    while words and words[0] in _DISCOURSE:
        words.pop(0)
    return not words or bool(_APPOSITIVE.match(" ".join(words)))
