"""Every finder of statements (claims that are not equalities) run over one step's text.

The finders (numbers, counts, ratios, rewriting, congruences, remainders) build on statements.py;
this module sits above them all, so statements.py never imports a finder back.
"""

from __future__ import annotations

from autolabel.symbolic.congruences import congruence_statements
from autolabel.symbolic.counts import count_statements
from autolabel.symbolic.gcds import gcd_statements
from autolabel.symbolic.numbers import number_statements
from autolabel.symbolic.ratios import percentage_statements, ratio_statements
from autolabel.symbolic.remainders import remainder_statements
from autolabel.symbolic.rewriting import rewriting_statements
from autolabel.symbolic.statements import Statement, plain_view


def find_statements(prepared: str) -> list[Statement]:
    """Every statement the finders read in a step's prepared text, in text order."""
    plain = plain_view(prepared)
    found = [
        *number_statements(plain),
        *count_statements(plain),
        *ratio_statements(plain),
        *percentage_statements(plain),
        *rewriting_statements(prepared),
        *congruence_statements(prepared),
        *gcd_statements(prepared),
        *remainder_statements(prepared),
    ]
    return sorted(found, key=lambda s: s.start)
