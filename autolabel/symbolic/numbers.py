"""Number-theory claims about whole numbers, decided exactly with sympy's integers.

* ``primality``: "91 is prime", "51 is a prime number", "1 is not prime", "15 is composite";
* ``divisibility``: "91 is (not) divisible by 7", "7 divides 91", "21 is a multiple of 7",
  "3 is a factor of 12", "17 is odd";
* ``factorization``: "the prime factorization of 72 is 2^3 * 3^2" (the product is the number
  and every base is prime), also ``72 = 2^3 \\cdot 3^2`` in a sentence that says "prime
  factorization" or "product of primes";
* ``divisors``: "the (positive / proper / prime) divisors of 12 are 1, 2, 3, 4, 6 and 12"
  (the whole set; proper divisors without the number, with or without 1; prime divisors
  as a set or with multiplicity); "the factors of 12 are ..." only fails when a listed
  number does not divide 12 (a list of factors may be a factorization);
* ``simplification``: "\\frac{6}{8} is in lowest terms", "6/8 cannot be simplified further".

Subjects are single whole numbers that stand alone ("2 + 91 is prime" reads nothing, "half
of 12 is even" neither). A list must be complete: "..." or "and so on" after it, or a
qualifier between "of 12" and "are" ("the divisors of 12 greater than 3 are"), reads nothing.
Numbers above 10^12 are not factored.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from fractions import Fraction

import sympy

from autolabel.symbolic.compare import Decision
from autolabel.symbolic.statements import (
    CONTINUED,
    NUMBER,
    Statement,
    as_int,
    shown,
    standalone,
)

MAX_FACTOR = 10**12

_FLAGS = re.IGNORECASE
_SUBJECT = rf"(?P<n>{NUMBER})\s*,?\s+"
_PRIMALITY = re.compile(
    _SUBJECT + r"is\s+(?P<neg>not\s+)?(?:a\s+)?(?:(?P<prime>prime)|(?P<composite>composite))"
    r"(?:\s+number)?(?![\w-]|\s+(?:to|factor|power|divisor|number\s+of|numbers?\s+of|"
    r"pairs?|twins?)\b)",
    _FLAGS,
)
_DIVISIBLE = re.compile(
    _SUBJECT + r"is\s+(?P<neg>not\s+)?(?:(?:evenly|exactly)\s+)?divisible\s+by\s+"
    rf"(?P<d>{NUMBER})(?!\s*(?:,|and|or)\s*\d)",
    _FLAGS,
)
_DIVIDES = re.compile(
    rf"(?P<d>{NUMBER})\s+(?P<neg>does\s+not\s+divide|doesn't\s+divide|divides)\s+"
    rf"(?P<n>{NUMBER})(?!\s*(?:,|and|or)\s*\d)",
    _FLAGS,
)
_MULTIPLE = re.compile(
    rf"(?P<n>{NUMBER})\s+is\s+(?P<neg>not\s+)?an?\s+(?P<rel>multiple|factor|divisor)\s+of\s+"
    rf"(?P<m>{NUMBER})(?!\s*(?:,|and|or)\s*\d)",
    _FLAGS,
)
_PARITY = re.compile(
    _SUBJECT + r"is\s+(?P<neg>not\s+)?(?:an?\s+)?(?P<parity>even|odd)(?:\s+number)?(?![\w-])",
    _FLAGS,
)
# A factor: a whole number, its thousands grouped or not ("2,013"), and a power.
_FACTOR = r"(?:\d{1,3}(?:(?:,|\\,)\d{3})+(?!\d)|\d+)(?:\s*\^\s*(?:\{\s*\d+\s*\}|\d+))?"
_TIMES = r"\s*(?:\\times|\\cdot|\\ast|\*|\u00d7|\u00b7|\u22c5)\s*"
_PRODUCT = (
    rf"(?P<product>{_FACTOR}(?:{_TIMES}{_FACTOR})*)"
    rf"(?![\d^]|[.,]\d|\s*[-+*/=^\\]|{_TIMES}|{CONTINUED}|\s*\(\s*\d)"  # "3(11)(61)" goes on
)
_FACTORIZATION = re.compile(
    rf"prime\s+factori[sz]ation\s+of\s+(?P<n>{NUMBER})\s+is\s*:?\s*"
    rf"(?:(?P<n2>{NUMBER})\s*=\s*)?{_PRODUCT}",
    _FLAGS,
)
_PRIME_WORDS = re.compile(r"prime\s+factori[sz]ation|product\s+of\s+(?:its\s+)?primes?", _FLAGS)
_EQUALS_PRODUCT = re.compile(rf"(?P<n>{NUMBER})\s*=\s*{_PRODUCT}")
_ITEM = rf"{NUMBER}"
_LIST = rf"(?P<list>{_ITEM}(?:\s*,\s*(?:and\s+)?{_ITEM})*(?:\s*,?\s*and\s+{_ITEM})?)"
_DIVISOR_LIST = re.compile(
    r"(?P<head>(?:^|(?<=[.!?:;,]\s)|(?<=\n)|(?<=\bso\s)|(?<=\bthus\s)|(?<=\bhence\s)|"
    r"(?<=\btherefore\s)|(?<=\band\s)|(?<=\bnow\s))(?:the\s+)?)"
    r"(?P<which>(?:(?:positive|proper|distinct|prime|integer|whole[- ]number)\s+)*)"
    rf"(?P<noun>divisors|factors)\s+of\s+(?P<n>{NUMBER})\s+(?:are|is)\s*:?\s*{_LIST}",
    _FLAGS,
)
_LIST_OPEN_END = re.compile(
    r"\s*(?:,?\s*(?:\.\.\.|\u2026|\\[lc]?dots|etc|and\s+so\s+on|and\s+others|among\s+others|"
    r"and\s+more)|,\s*\d)",
    _FLAGS,
)
_FRACTION = (
    r"(?:\\[dt]?frac\s*\{\s*(?P<a>\d+)\s*\}\s*\{\s*(?P<b>\d+)\s*\}|(?P<c>\d+)\s*/\s*(?P<d>\d+))"
)
_LOWEST = re.compile(
    rf"(?<![\d/^.]){_FRACTION}\s*,?\s*(?:(?:which|and\s+this|this)\s+)?"
    r"(?:is\s+(?:already\s+)?(?:in\s+)?(?:its\s+)?(?:simplest|lowest)\s+(?:form|terms)|"
    r"(?:cannot|can't|can\s+not)\s+be\s+(?:simplified|reduced)(?:\s+any)?\s+further)",
    _FLAGS,
)


def number_statements(plain: str) -> list[Statement]:
    found: list[Statement] = []
    for finder in (
        _primality,
        _divisibility,
        _parity,
        _factorizations,
        _divisor_lists,
        _lowest_terms,
    ):
        found.extend(finder(plain))
    return found


def _statement(kind: str, plain: str, m: re.Match[str], lhs: str, rhs: str, decide) -> Statement:
    return Statement(kind, shown(plain, m.start(), m.end()), m.start(), m.end(), lhs, rhs, decide)


def _primality(plain: str) -> Iterator[Statement]:
    for m in _PRIMALITY.finditer(plain):
        if not standalone(plain, m.start("n")):
            continue
        n = as_int(m.group("n"))
        says_prime = bool(m.group("prime")) != bool(m.group("neg"))
        word = "prime" if m.group("prime") else "composite"
        claim = ("not " if m.group("neg") else "") + word

        def decide(n: int = n, says_prime: bool = says_prime, claim: str = claim) -> Decision:
            if claim.endswith("composite") and n < 2:
                return Decision(None, "0 and 1 are neither prime nor composite", str(n), claim)
            prime = bool(sympy.isprime(n))
            value = "prime" if prime else "not prime"
            if prime == says_prime:
                return Decision(True, f"{n} is {value}", str(n), value)
            return Decision(False, f"{n} is {value}{_witness(n)}", str(n), value)

        yield _statement("primality", plain, m, str(n), claim, decide)


def _witness(n: int) -> str:
    if n < 2 or n > MAX_FACTOR:
        return ""
    p = min(sympy.factorint(n))
    return f" ({n} = {p} * {n // p})" if p != n else ""


def _divisibility(plain: str) -> Iterator[Statement]:
    for m in _DIVISIBLE.finditer(plain):
        if standalone(plain, m.start("n")):
            yield _divides_statement(plain, m, as_int(m.group("n")), as_int(m.group("d")))
    for m in _DIVIDES.finditer(plain):
        if standalone(plain, m.start("d")):
            yield _divides_statement(plain, m, as_int(m.group("n")), as_int(m.group("d")))
    for m in _MULTIPLE.finditer(plain):
        if not standalone(plain, m.start("n")):
            continue
        a, b = as_int(m.group("n")), as_int(m.group("m"))
        n, d = (a, b) if m.group("rel").lower() == "multiple" else (b, a)
        yield _divides_statement(plain, m, n, d)


def _divides_statement(plain: str, m: re.Match[str], n: int, d: int) -> Statement:
    neg = (m.group("neg") or "").lower()
    negated = "not" in neg or "n't" in neg
    claim = f"{d} {'does not divide' if negated else 'divides'} {n}"

    def decide() -> Decision:
        if d == 0:
            return Decision(None, "division by zero", claim, "")
        divides = n % d == 0
        value = f"{n} = {d} * {n // d}" if divides else f"{n} = {d} * {n // d} + {n % d}"
        return Decision(divides != negated, value, claim, value)

    return _statement("divisibility", plain, m, claim, "", decide)


def _parity(plain: str) -> Iterator[Statement]:
    for m in _PARITY.finditer(plain):
        if not standalone(plain, m.start("n")):
            continue
        n = as_int(m.group("n"))
        says_even = (m.group("parity").lower() == "even") != bool(m.group("neg"))

        def decide(n: int = n, says_even: bool = says_even) -> Decision:
            value = "even" if n % 2 == 0 else "odd"
            return Decision((n % 2 == 0) == says_even, f"{n} is {value}", str(n), value)

        yield _statement("divisibility", plain, m, str(n), m.group("parity").lower(), decide)


def _product_factors(product: str) -> list[tuple[int, int]] | None:
    """[(base, exponent)] of ``2^3 \\cdot 3^2``; None when an exponent is too large."""
    factors = []
    for piece in re.split(_TIMES, product.strip()):
        base, _, exponent = piece.partition("^")
        e = int(exponent.strip(" {}")) if exponent else 1
        if e > 200:
            return None
        factors.append((as_int(base.strip()), e))
    return factors


def _factorization_decision(n: int, product: str) -> Decision:
    factors = _product_factors(product)
    if factors is None:
        return Decision(None, "exponent too large", str(n), product)
    value = math.prod(b**e for b, e in factors)
    if value != n:
        return Decision(False, f"the product is {value}, not {n}", str(n), str(value))
    # a factor 1 written beside the primes ("11 = 11 * 1") is no composite factor
    composite = [b for b, _ in factors if b != 1 and not sympy.isprime(b)]
    if composite:
        return Decision(False, f"{composite[0]} is not prime", str(n), product)
    return Decision(True, f"{n} = {product}, all prime", str(n), product)


def _factorizations(plain: str) -> Iterator[Statement]:
    spans = []
    for m in _FACTORIZATION.finditer(plain):
        n = as_int(m.group("n"))
        if m.group("n2") and as_int(m.group("n2")) != n:
            continue
        spans.append((m.start("product"), m.end("product")))
        product = m.group("product")
        single = re.fullmatch(r"\d+", product.strip()) is not None
        if single and as_int(product) == n:
            continue  # "the prime factorization of 13 is 13" and the like: say nothing

        def decide(n: int = n, product: str = product) -> Decision:
            return _factorization_decision(n, product)

        yield _statement("factorization", plain, m, str(n), product, decide)
    for m in _EQUALS_PRODUCT.finditer(plain):
        if (m.start("product"), m.end("product")) in spans or not standalone(plain, m.start()):
            continue
        sentence_start = max(plain.rfind(". ", 0, m.start()), plain.rfind("\n", 0, m.start()))
        if not _PRIME_WORDS.search(plain, max(0, sentence_start), m.start()):
            continue
        if re.fullmatch(r"\d+", m.group("product").strip()):
            continue
        n, product = as_int(m.group("n")), m.group("product")

        def decide(n: int = n, product: str = product) -> Decision:
            return _factorization_decision(n, product)

        yield _statement("factorization", plain, m, str(n), product, decide)


def _listed(text: str) -> list[int]:
    return [as_int(x) for x in re.findall(r"\d{1,3}(?:(?:,|\\,)\d{3})+(?!\d)|\d+", text)]


def _divisor_lists(plain: str) -> Iterator[Statement]:
    for m in _DIVISOR_LIST.finditer(plain):
        if _LIST_OPEN_END.match(plain, m.end()):
            continue  # "1, 2, 3, ..." or "and so on": not the whole list
        n = as_int(m.group("n"))
        items = _listed(m.group("list"))
        which = set(m.group("which").lower().split())
        noun = m.group("noun").lower()
        if not (0 < n <= MAX_FACTOR) or len(items) < 2 and "prime" not in which:
            continue

        def decide(n: int = n, items: list[int] = items, which=which, noun=noun) -> Decision:
            return _divisor_decision(n, items, which, noun)

        yield _statement("divisors", plain, m, f"{noun} of {n}", m.group("list"), decide)


def _divisor_decision(n: int, items: list[int], which: set[str], noun: str) -> Decision:
    divisors = [int(d) for d in sympy.divisors(n)]
    listed = ", ".join(map(str, items))
    not_dividing = [x for x in items if x == 0 or n % x]
    if not_dividing:
        return Decision(False, f"{not_dividing[0]} does not divide {n}", listed, "")
    if "prime" in which:
        primes = sorted(sympy.factorint(n))
        multiset = sorted(p for p, e in sympy.factorint(n).items() for _ in range(e))
        ok = sorted(set(items)) == primes and (
            len(items) == len(primes) or sorted(items) == multiset
        )
        truth = ", ".join(map(str, primes))
        return Decision(ok, f"the prime divisors of {n} are {truth}", listed, truth)
    if noun == "factors" and not which:
        return Decision(None, "a list of factors may be a factorization", listed, "")
    wanted = [set(divisors)]
    if "proper" in which:
        wanted = [set(divisors) - {n}, set(divisors) - {n, 1}]
    ok = len(set(items)) == len(items) and set(items) in wanted
    truth = ", ".join(map(str, sorted(wanted[0])))
    reason = f"the {' '.join(sorted(which))} divisors of {n} are {truth}".replace("  ", " ")
    return Decision(ok, reason, listed, truth)


def _lowest_terms(plain: str) -> Iterator[Statement]:
    for m in _LOWEST.finditer(plain):
        a = int(m.group("a") or m.group("c"))
        b = int(m.group("b") or m.group("d"))
        if b == 0:
            continue
        fraction = f"{a}/{b}"

        def decide(a: int = a, b: int = b, fraction: str = fraction) -> Decision:
            g = math.gcd(a, b)
            reduced = Fraction(a, b)
            if g == 1:
                return Decision(True, f"gcd({a}, {b}) = 1", fraction, fraction)
            value = f"{reduced.numerator}/{reduced.denominator}"
            return Decision(False, f"gcd({a}, {b}) = {g}: {fraction} = {value}", fraction, value)

        yield _statement("simplification", plain, m, fraction, "in lowest terms", decide)
