"""Symbolic step checking: arithmetic and algebraic claims in a step, decided exactly.

Public API: :func:`check_step` -> :class:`StepVerdict` (with :class:`ClaimResult` items).
Modules: ``segments`` (math vs prose, pylatexenc), ``tokens``/``parser``/``ast`` (reading
expressions), ``math_text``/``prose``/``annotations``/``restate`` (finding claims),
``evaluate`` (exact values, intervals, size guards), ``compare`` (the rules for one claim),
``verdicts`` (results), ``check`` (orchestration under time limits).
"""

from autolabel.symbolic.check import check_step, check_step_local
from autolabel.symbolic.verdicts import CHECKER_VERSION, ClaimResult, StepVerdict

__all__ = ["CHECKER_VERSION", "ClaimResult", "StepVerdict", "check_step", "check_step_local"]
