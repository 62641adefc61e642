"""Legendre, Jacobi and Kronecker symbols: "(3/7) = -1" is not three sevenths.

In number theory ``\\left(\\frac{a}{p}\\right)`` (or ``(a/p)``) is the Legendre symbol, whose
value is 1, -1 or 0: "By quadratic reciprocity, (3/7) = -(7/3) = -(1/3) = -1" is true and was
refuted as arithmetic and chain (3/7 ≠ -1). Where the step, a step before it or the problem
speaks of such symbols (Legendre, Jacobi, Kronecker, quadratic residues or non-residues,
reciprocity), a chain with a parenthesized fraction on a side says nothing the checker reads;
elsewhere "(3/7) = -1" is still arithmetic ("\\left(\\frac{1}{2}\\right)^2 = \\frac{1}{4}").
"""

from __future__ import annotations

import re

from autolabel.symbolic.chains import Chain

_SETTING = re.compile(
    r"legendre|jacobi|kronecker|quadratic[\s-]+(?:non-?)?residue|reciprocity|residue\s+symbol",
    re.IGNORECASE,
)
_SYMBOL = re.compile(
    r"(?:\\left\s*)?\(\s*(?:\\[dt]?frac\s*\{[^{}]*\}\s*\{[^{}]*\}|-?\s*\w+\s*/\s*\w+)\s*"
    r"(?:\\right\s*)?\)"
)


def residue_setting(*texts: str) -> bool:
    """The texts speak of residue symbols."""
    return any(_SETTING.search(text) for text in texts if text)


def has_symbol(chain: Chain) -> bool:
    """A side of the chain holds a parenthesized fraction, a residue symbol in that setting."""
    return any(_SYMBOL.search(side.text) for side in chain.sides)
