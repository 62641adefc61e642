"""run_tests: a program against a problem's tests, one sandboxed run per test.

Two kinds of tests:

* **stdin/stdout cases** (a list of :class:`TestCase`): the program runs with the case's
  input; it passes when it exits 0 and its stdout matches the expected output (``compare``:
  "lines" ignores trailing spaces on each line and trailing blank lines, "tokens" compares
  whitespace-separated tokens, "exact" compares bytes).
* **assert-style test code** (a string): every top-level statement of the test code that is
  not setup (def, class, import, assignment) is one test. Test *k* runs the program, then
  the setup statements and test *k* itself; it passes when the code ran to its end
  (exit 0 and the bootstrap saw the last statement finish: a program that calls
  ``sys.exit(0)`` before the tests does not pass).

One run per test isolates tests from each other (a hang or crash costs only that test).
A program that deliberately subverts the interpreter (patching builtins, scanning memory
for the run's nonce) can still fake an in-process assert; these verdicts are evidence for
a human, not an adversarial judge.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from autolabel.deadline import ItemDeadline
from labeling.rules.code_tests import SETUP_NODES

from .result import SandboxResult, Status
from .runner import run_python

Compare = Literal["lines", "tokens", "exact"]
EVIDENCE_CHARS = 2000


@dataclass(frozen=True)
class TestCase:
    input: str = ""
    expected_output: str | None = None  # None: the case only has to run cleanly
    name: str = ""


@dataclass(frozen=True)
class TestOutcome:
    name: str
    passed: bool
    reason: str  # "passed", "wrong output", "exited early", or the run's status
    result: SandboxResult
    source: str = ""  # the test statement (assert-style) or the input (stdin cases)
    expected: str | None = None

    def evidence(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "passed": self.passed,
            "reason": self.reason,
            "test": _cut(self.source),
            "expected": None if self.expected is None else _cut(self.expected),
            **self.result.evidence(EVIDENCE_CHARS),
        }


@dataclass(frozen=True)
class TestReport:
    outcomes: tuple[TestOutcome, ...]

    @property
    def passed(self) -> bool:
        return bool(self.outcomes) and all(o.passed for o in self.outcomes)

    @property
    def failures(self) -> tuple[TestOutcome, ...]:
        return tuple(o for o in self.outcomes if not o.passed)

    def summary(self) -> str:
        return f"{len(self.outcomes) - len(self.failures)}/{len(self.outcomes)} tests passed"


def _cut(text: str) -> str:
    return text if len(text) <= EVIDENCE_CHARS else text[:EVIDENCE_CHARS] + "…"


def outputs_match(actual: str, expected: str, compare: Compare = "lines") -> bool:
    if compare == "exact":
        return actual == expected
    if compare == "tokens":
        return actual.split() == expected.split()

    def lines(text: str) -> list[str]:
        rows = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
        while rows and not rows[-1]:
            rows.pop()
        return rows

    return lines(actual) == lines(expected)


def split_assert_tests(test_code: str) -> list[tuple[str, str]]:
    """(program suffix, test statement) per test: the setup statements before the test,
    then the test. Raises ValueError when the test code does not parse or has no test."""
    try:
        tree = ast.parse(test_code)
    except SyntaxError as exc:
        raise ValueError(f"the test code does not parse: {exc}") from exc
    setup: list[str] = []
    tests: list[tuple[str, str]] = []
    for node in tree.body:
        text = ast.get_source_segment(test_code, node) or ast.unparse(node)
        if isinstance(node, SETUP_NODES):
            setup.append(text)
        else:
            tests.append(("\n".join([*setup, text]), text))
    if not tests:
        raise ValueError("the test code has no test statement (only setup)")
    return tests


def run_tests(
    code: str,
    tests: Sequence[TestCase] | str,
    *,
    timeout_s: float = 5.0,
    memory_mb: int = 256,
    compare: Compare = "lines",
    stop_on_failure: bool = False,
    deadline: ItemDeadline | None = None,
    **sandbox: Any,
) -> TestReport:
    """Run ``code`` against ``tests`` (see the module doc); ``sandbox`` goes to run_python.
    ``deadline`` bounds the runs together: a test it leaves no time for, or cuts short, is not
    judged, and the item's ItemSkipped is raised (``deadline.spent()``)."""
    deadline = deadline or ItemDeadline(None, limit="code_item_s", spending="its runs")
    outcomes: list[TestOutcome] = []
    if isinstance(tests, str):
        for k, (suffix, statement) in enumerate(split_assert_tests(tests), start=1):
            program = f"{code.rstrip()}\n\n# --- tests ---\n{suffix}\n"
            given = deadline.cut(timeout_s)
            result = run_python(program, timeout_s=given, memory_mb=memory_mb, **sandbox)
            deadline.raise_if_cut(result.status is Status.TIMEOUT, given, timeout_s)
            if result.ok and result.completed:
                reason = "passed"
            elif result.ok:
                reason = "exited early"  # sys.exit(0) before the test ran
            else:
                reason = result.exception or str(result.status)
            outcomes.append(TestOutcome(f"test {k}", reason == "passed", reason, result, statement))
            if stop_on_failure and reason != "passed":
                break
        return TestReport(tuple(outcomes))
    for k, case in enumerate(tests, start=1):
        given = deadline.cut(timeout_s)
        result = run_python(code, stdin=case.input, timeout_s=given, memory_mb=memory_mb, **sandbox)
        deadline.raise_if_cut(result.status is Status.TIMEOUT, given, timeout_s)
        if result.status is not Status.OK:
            reason = result.exception or str(result.status)
        elif case.expected_output is None or outputs_match(
            result.stdout, case.expected_output, compare
        ):
            reason = "passed"
        else:
            reason = "wrong output"
        outcome = TestOutcome(
            case.name or f"case {k}", reason == "passed", reason, result, case.input,
            case.expected_output,
        )  # fmt: skip
        outcomes.append(outcome)
        if stop_on_failure and not outcome.passed:
            break
    return TestReport(tuple(outcomes))


def parse_tests(spec: Any) -> list[TestCase] | str:
    """A problem's tests from JSON (``Problem.metadata["tests"]``), in any of:

    * a string: assert-style test code;
    * ``{"code": "..."}``: the same;
    * a list of ``{"input": ..., "output": ...}`` (``"name"`` optional; ``"stdin"`` /
      ``"expected_output"`` accepted too);
    * ``{"inputs": [...], "outputs": [...]}`` (APPS, CodeContests).

    Raises ValueError for anything else.
    """
    if isinstance(spec, str):
        return spec
    if isinstance(spec, Mapping):
        if isinstance(spec.get("code"), str):
            return spec["code"]
        inputs, outputs = spec.get("inputs"), spec.get("outputs")
        if isinstance(inputs, list) and isinstance(outputs, list) and len(inputs) == len(outputs):
            return [TestCase(_text(i), _text(o)) for i, o in zip(inputs, outputs, strict=True)]
    if isinstance(spec, list) and all(isinstance(case, Mapping) for case in spec):
        cases = []
        for case in spec:
            given = case.get("input", case.get("stdin", ""))
            expected = case.get("output", case.get("expected_output"))
            cases.append(
                TestCase(_text(given), None if expected is None else _text(expected),
                         str(case.get("name", "")))
            )  # fmt: skip
        if cases:
            return cases
    raise ValueError(f"unrecognised tests: {type(spec).__name__}")


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # some datasets store lines
        return "\n".join(str(v) for v in value) + "\n"
    return str(value)
