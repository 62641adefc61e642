"""Words of a step or its problem that change how its claims read (check.py reads them).

MODULAR: a modular setting, where "=" may mean "congruent" (every failed equality there is
hedged); PI_NAMED: the problem names pi as a function, so pi(2) is no multiple of 3.14159;
PRIME_COUNTING: the step or its problem counts primes, so pi(10) = 4 is the counting function.
symbolic-1.12 adds the rings and fields whose arithmetic is modular ("In Z_7, 3 * 5 = 1",
"in Z/6Z", "GF(2)", "F_p", "the integers modulo n", "a finite field"), found by probing true
statements. symbolic-1.13 adds XOR: the step or its problem speaks of exclusive or, where "^"
is the bitwise operator of C and Python ("6 ^ 3 = 5 (xor)"), not a power. Issue 25 adds
:func:`defines_star`: the problem or a step defines "*" as an operation of its own ("Define
$a * b = a + b + ab$"), so "3 * 4 = 19" there is no product.
"""

from __future__ import annotations

import re

# The problem names pi as a function ("Let $\pi$ be a permutation of ..."): pi(2) is a value
# of that function, not 2 * 3.14159....
PI_NAMED = re.compile(
    r"\\pi\s*\$?\s*(?:be|is|denotes?)\s+(?:a|an|the|some)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:permutation|function|bijection|map|mapping)\b",
    re.IGNORECASE,
)
# pi as the prime-counting function ("pi(10) = 4 primes below 10"): symbolic-1.12
PRIME_COUNTING = re.compile(
    r"prime[\s-]*counting|number\s+of\s+primes|\bprimes?\s+(?:less\s+than|below|up\s+to|"
    r"not\s+exceeding|at\s+most|smaller\s+than)",
    re.IGNORECASE,
)
# Exclusive or ("xor", "XOR", "exclusive or", "bitwise", "\oplus", "⊕"): a "^" there may be
# the operator, not a power (symbolic-1.13, found by probing true statements).
XOR = re.compile(r"\bxor\b|exclusive[\s-]+or|\bbitwise\b|\\oplus|\u2295|\\veebar", re.IGNORECASE)
# Modular arithmetic, where "=" may mean "congruent": a clock's hours count modulo 12 or 24
# ("On a 12-hour clock, 10 + 5 = 3").
MODULAR = re.compile(
    r"\bmod(ulo|ular)?\b|\\pmod|\\bmod|\\equiv|\u2261|congruen|remainder"
    r"|\b\d+[- ]hour\s+clock|\bclock\s+arithmetic"
    # rings and fields of residues: Z_7, Z/6Z, \mathbb{Z}_n, GF(2), \mathbb{F}_p, finite fields
    # (a plain F_5 or Z_3 may name a term of a sequence: only "in Z_5", "over Z_p")
    r"|\\mathbb\s*\{?\s*[ZF]\s*\}?\s*(?:_|/)"
    r"|\b(?:in|over)\s+(?:\$|\\\()?\s*(?-i:Z)_\{?\s*(?:\d+|[pnmq])\b"
    r"|\bZ\s*/\s*\d*\s*Z\b|\bGF\s*\(|finite\s+field|integers\s+mod",
    re.IGNORECASE,
)


# "a * b = a + b + ab", "x \\ast y = 2x - y": a binary operation written with the product's
# sign, defined on two letters by a right side that uses them.
_STAR_DEFINED = re.compile(
    r"(?<![\w\\])([a-zA-Z])\s*(?:\*|\\ast\b)\s*([a-zA-Z])(?![\w(])\s*=\s*([^=$,;\n]+)"
)
_PRODUCT_WRITTEN = re.compile(r"\s+|\\cdot|\\times|\*|\\ast|[{}()]")


def defines_star(text: str) -> bool:
    """The text defines "*" as an operation of its own: a definition "a * b = ..." whose right
    side uses a or b and is not their product written again ("a * b = ab", "l * w = 24": a
    product)."""
    for m in _STAR_DEFINED.finditer(text):
        a, b, right = m.group(1), m.group(2), m.group(3).strip().rstrip(".")
        if not re.search(rf"(?<![a-zA-Z\\]){a}|(?<![a-zA-Z\\]){b}", right):
            continue  # "l * w = 24": a value, not a definition
        if _PRODUCT_WRITTEN.sub("", right) in (a + b, b + a):
            continue  # "a * b = ab", "x * y = x \\cdot y": the product itself
        return True
    return False
