"""Greatest common divisors and least common multiples of whole numbers, decided exactly.

* in words: "the GCD of 187 and 77 is 13", "the least common multiple of 4, 6 and 10 is 60",
  "the greatest common factor of 12 and 18 equals 6";
* as a function: ``\\gcd(12, 18) = 6``, ``\\text{lcm}(4, 6) = 12``, ``gcd(12,18)=6``,
  ``\\operatorname{lcm}[4, 6] = 12``.

Only whole numbers written out are read (two to eight of them, each at most 10^12); the value
must be a number standing alone, not the start of an expression ("= 2 \\cdot 3" reads
nothing). check.py does not refute one whose sentence hedges, as for every statement.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterator

from autolabel.symbolic.compare import Decision
from autolabel.symbolic.statements import (
    CONTINUED,
    NUMBER,
    Statement,
    as_int,
    plain_view,
    shown,
)

KIND = "gcd_lcm"
MAX_VALUE = 10**12

_GCD_WORDS = (
    r"gcd|g\.c\.d\.|gcf|hcf|greatest\s+common\s+(?:divisor|factor)|highest\s+common\s+factor"
)
_LCM_WORDS = r"lcm|l\.c\.m\.|least\s+common\s+multiple|lowest\s+common\s+multiple"
_LIST = rf"{NUMBER}(?:\s*,\s*{NUMBER}){{0,6}}\s*,?\s*and\s+{NUMBER}"
_VALUE = rf"(?P<value>{NUMBER})(?!\s*(?:[-+*/^×÷·(]|\\(?:cdot|times|div|frac))|{CONTINUED})"
_WORDED = re.compile(
    rf"\b(?:the\s+)?(?P<what>{_GCD_WORDS}|{_LCM_WORDS})\s+of\s+(?P<list>{_LIST})\s*,?\s*"
    rf"(?:is|equals|=|is\s+equal\s+to)\s+{_VALUE}",
    re.IGNORECASE,
)
_CALLED = re.compile(
    r"(?:\\(?:gcd|operatorname\s*\{\s*(?:gcd|lcm)\s*\}|text\s*\{\s*(?:gcd|lcm)\s*\}|"
    r"mathrm\s*\{\s*(?:gcd|lcm)\s*\})|\b(?:gcd|lcm|GCD|LCM))"
    rf"\s*(?:\\left\s*)?[(\[]\s*(?P<list>{NUMBER}(?:\s*,\s*{NUMBER}){{1,7}})\s*(?:\\right\s*)?[)\]]"
    rf"\s*=\s*{_VALUE}",
)


def gcd_statements(prepared: str) -> Iterator[Statement]:
    if not re.search(r"gcd|lcm|g\.c\.d|l\.c\.m|gcf|hcf|common", prepared, re.IGNORECASE):
        return
    plain = plain_view(prepared)
    for m in (*_WORDED.finditer(plain), *_CALLED.finditer(plain)):
        text = m.group(0)
        lcm = bool(re.search(r"lcm|l\.c\.m|multiple", text, re.IGNORECASE))
        numbers = [as_int(n) for n in re.findall(NUMBER, m.group("list"))]
        claimed = as_int(m.group("value"))
        if len(numbers) < 2 or max(numbers + [claimed]) > MAX_VALUE:
            continue
        if any(n == 0 for n in numbers):
            continue  # gcd(0, n) and lcm(0, n) conventions differ; say nothing
        name = "lcm" if lcm else "gcd"
        listed = ", ".join(str(n) for n in numbers)
        decide = functools.partial(_decide, numbers, claimed, lcm)
        yield Statement(
            KIND,
            shown(plain, m.start(), m.end()),
            m.start(),
            m.end(),
            f"{name}({listed})",
            str(claimed),
            decide,
        )


def _decide(numbers: list[int], claimed: int, lcm: bool) -> Decision:
    value = math.lcm(*numbers) if lcm else math.gcd(*numbers)
    name = "lcm" if lcm else "gcd"
    listed = ", ".join(str(n) for n in numbers)
    reason = f"{name}({listed}) = {value}" + ("" if value == claimed else f", not {claimed}")
    return Decision(value == claimed, reason, str(value), str(claimed), KIND)
