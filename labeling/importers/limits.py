"""Column limits of the tables a parsed row goes to, checked before anything is written."""

from labeling.accounts.operators import operator_caps
from labeling.rules import code_tests

from .fields import Row
from .types import ParsedRow

EXTERNAL_ID_MAX = 300  # Problem.external_id, Solution.external_id
LABEL_MAX = 200  # Solution.generator / source, Suggestion.agent, Annotation.external_annotator
# Steps of one solution: a draft or a submit carries one label per step, and the API takes at
# most labeling.api.bounds.MAX_LABELS of them (a test keeps the two equal). A solution with more
# could be imported but never labeled; a 10 MB line of short lines held millions.
STEPS_MAX = 20_000


def _check(row: Row, value: str, limit: int, field: str) -> None:
    if len(value) > limit:
        raise row.error(field, f"is {len(value)} characters long; the limit is {limit}")


def check_tests(parsed: ParsedRow, row: Row) -> None:
    """A code problem's tests within the per-item sandbox budget (labeling/rules/code_tests.py,
    the caps in AUTOLABEL_LIMITS): tests a worker would skip are refused here, in words."""
    tests = parsed.problem.metadata.get("tests")
    if tests is None:
        return
    over = code_tests.over_caps(tests, operator_caps("AUTOLABEL_LIMITS", code_tests.DEFAULTS))
    if over is not None:
        name, what = over
        cap = f"AUTOLABEL_LIMITS[{name!r}]; a server admin may raise it"
        raise row.error("tests", f"{what} for a problem ({cap})")


def check_lengths(parsed: ParsedRow, row: Row) -> None:
    check_tests(parsed, row)
    _check(row, parsed.problem.external_id, EXTERNAL_ID_MAX, "problem_id")
    _check(row, parsed.problem.source, LABEL_MAX, "source")
    for solution in parsed.solutions:
        if len(solution.steps) > STEPS_MAX:
            raise row.error(
                "steps",
                f"{len(solution.steps)} steps; a solution has at most {STEPS_MAX} "
                "(split the trace into several solutions)",
            )
        _check(row, solution.external_id, EXTERNAL_ID_MAX, "id")
        _check(row, solution.generator, LABEL_MAX, "generator")
        _check(row, solution.source, LABEL_MAX, "source")
        _check(row, solution.label_agent, LABEL_MAX, "source")
        _check(row, solution.label_annotator, LABEL_MAX, "source")
