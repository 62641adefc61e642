"""Symbolic step checking: arithmetic and algebraic claims in a step, decided exactly.

Public API: :func:`check_step` -> :class:`StepVerdict` (with :class:`ClaimResult` items).
Modules: ``segments`` (math vs prose, pylatexenc), ``tokens``/``parser``/``ast`` (reading
expressions), ``math_text``/``prose``/``annotations``/``restate``/``verbal`` (finding
equalities and order claims, in symbols and in words), ``evaluate`` (exact values, intervals,
size guards), ``compare`` (the rules for one equality), ``conversions``/``units`` (unit
conversions), ``inequalities`` (order claims), ``statements`` (claims that are not an
equality: ``numbers``, ``counts``, ``ratios``, ``rewriting``, ``substitution``,
``congruences``, ``rearranging``), ``verdicts``
(results), ``check`` (orchestration under time limits). Each ClaimResult names its ``kind``.
"""

from autolabel.symbolic.check import check_step, check_step_local
from autolabel.symbolic.verdicts import CHECKER_VERSION, ClaimResult, StepVerdict

__all__ = ["CHECKER_VERSION", "ClaimResult", "StepVerdict", "check_step", "check_step_local"]
