"""Code steps: run each prefix of a code solution in the sandbox, then the problem's tests.

A solution's steps are code fragments. If any step has a Markdown fence, only lines inside
``python``/``py`` (or unlabelled) fences count, and a fence may open in one step and close
in a later one; prose contributes nothing. If no step has a fence, every step is code.

Verdicts (conservative: only what a run shows):

* **Crash, −1 at step i**: the program made of the code up to step i raises, exits
  non-zero, is killed, runs out of memory or time. Only prefixes that end at a top-level
  statement boundary are run (not when the next code step continues an indented block,
  nor when ``codeop`` finds the code incomplete), so a prefix's statements are exactly the
  first statements of the whole program: given the same input, its crash is the program's
  crash. Prefixes run with the first stdin test's input (none for assert tests); an
  ``EOFError`` with no input to give is inconclusive. The first crash ends the prefix
  checks; a SyntaxError that more code cannot fix counts as a crash.
* **Tests, on the last step**: the full program against the problem's tests: −1 with the
  failures when one fails (unless an earlier step crashed: that is the first error, and the
  tests then only fill ``answer_correct``). When every test passes, evidence only (value
  None, evidence kind "tests pass"): passing tests have not been measured to predict a
  step's label (the labeled public samples are math), so they are not a +1. Steps that
  merely ran get nothing.

The tests come from ``SolutionInput.tests`` (the orchestrator fills it from
``Problem.metadata["tests"]``, the steplab importer's ``tests`` field) unless
``params["tests"]`` gives tests for the whole run; any shape that
:func:`autolabel.sandbox.judge.parse_tests` takes (assert code as a string or
``{"code": ...}``; ``[{"input", "output"}, ...]``; ``{"inputs": [...], "outputs": [...]}``).
Other ``params`` (all optional): ``timeout_s`` per run (5), ``memory_mb`` (256), ``compare``
("lines", "tokens" or "exact"), ``all_tests`` (false: stop at the first failing test, which
settles the verdict).

Every item is held to the per-item sandbox budget (labeling/rules/code_tests.py, the caps in
``SolutionInput.limits``): tests over ``code_tests`` or ``code_test_bytes`` are not run at all,
and the item's runs (prefixes, then tests) share ``code_item_s`` wall seconds, each run's
timeout cut to what is left. Either way the item fails with "skipped: over budget: ..."
(ItemSkipped), with no verdict drawn from a run the budget cut short.
"""

from __future__ import annotations

import codeop
import re
import warnings
from dataclasses import dataclass, field
from typing import Any

from annotate.queues import Queue
from autolabel.calibration import calibrate
from autolabel.deadline import ItemDeadline
from autolabel.engines.base import TESTS_PASS, EngineResult, SolutionInput, StepSuggestion
from autolabel.engines.params import check_keys, int_param, timeout_param
from autolabel.errors import ItemSkipped
from autolabel.sandbox import SandboxResult, Status, run_python
from autolabel.sandbox.judge import TestReport, parse_tests, run_tests
from labeling.rules import code_tests

SOURCE = "code"
AGENT = "sandbox/python"
PARAMS = {"tests", "timeout_s", "memory_mb", "compare", "all_tests"}
MEMORY_MB_MAX = 16_384
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<mark>```+|~~~+)[ \t]*(?P<lang>[\w+.-]*)")
_PYTHON = {"", "python", "py", "python3", "py3", "pycon"}
_CRASH = {Status.ERROR, Status.TIMEOUT, Status.MEMORY, Status.KILLED}
MAX_FAILURES_IN_EVIDENCE = 3


@dataclass
class Program:
    """The code of a solution: fragments per step, and which lines came from which step."""

    fragments: list[str | None]
    lines: list[int] = field(default_factory=list)  # step index of each program line

    def prefix(self, upto: int) -> str:
        return "\n".join(f for f in self.fragments[: upto + 1] if f is not None)

    def step_of_line(self, lineno: int) -> int | None:
        return self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else None

    @property
    def code_steps(self) -> list[int]:
        return [i for i, f in enumerate(self.fragments) if f is not None]


def extract_program(steps: tuple[str, ...] | list[str]) -> Program:
    fenced = any(_FENCE.match(line) for step in steps for line in step.splitlines())
    fragments: list[str | None] = []
    inside, keep, indent = False, False, 0
    for step in steps:
        if not fenced:
            fragments.append(step.rstrip() if step.strip() else None)
            continue
        code: list[str] = []
        for line in step.splitlines():
            match = _FENCE.match(line)
            if match and (not inside or not match["lang"]):
                if inside:
                    inside = False
                else:
                    inside, keep = True, match["lang"].lower() in _PYTHON
                    indent = len(match["indent"])
                continue
            if inside and keep:
                code.append(line[indent:] if not line[:indent].strip() else line.lstrip())
        fragments.append("\n".join(code) if any(c.strip() for c in code) else None)
    program = Program(fragments)
    for index, fragment in enumerate(fragments):
        if fragment is not None:
            program.lines += [index] * (fragment.count("\n") + 1)
    return program


def prefix_state(code: str) -> str:
    """ "complete", "incomplete" (more code could finish it) or "invalid"."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compiled = codeop.compile_command(code + "\n", "<prefix>", "exec")
        except (SyntaxError, ValueError, OverflowError):
            return "invalid"
    return "complete" if compiled is not None else "incomplete"


def _continues_block(next_fragment: str | None) -> bool:
    if next_fragment is None:
        return False
    first = next(
        (ln for ln in next_fragment.splitlines() if ln.strip() and not ln.lstrip().startswith("#")),
        "",
    )
    return first[:1] in (" ", "\t")


def _traceback_step(program: Program, stderr: str) -> int | None:
    found = re.findall(r'File "main\.py", line (\d+)', stderr)
    return program.step_of_line(int(found[-1])) if found else None


class CodeEngine:
    name = "code"
    queue = Queue.DEFAULT

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        check_keys(params, PARAMS, engine=self.name)
        timeout_s = timeout_param(params, 5.0, maximum=120.0)
        memory_mb = int_param(params, "memory_mb", 256, minimum=32, maximum=MEMORY_MB_MAX)
        compare = params.get("compare", "lines")
        if compare not in ("lines", "tokens", "exact"):
            raise ValueError(f"compare must be lines, tokens or exact, got {compare!r}")
        caps = {**code_tests.DEFAULTS, **solution.limits}
        given = params.get("tests") or solution.tests
        if given and (over := code_tests.over_caps(given, caps)) is not None:
            raise ItemSkipped.over_budget(*over)
        tests = parse_tests(given) if given else None
        result = EngineResult(source=SOURCE, agent=AGENT)
        program = extract_program(solution.steps)
        code_steps = program.code_steps
        if not code_steps:
            return result
        first_input = tests[0].input if isinstance(tests, list) and tests else None
        verdicts: dict[int, StepSuggestion] = {}
        budget = _Budget(caps["code_item_s"], timeout_s)
        crashed = self._check_prefixes(
            program, tests is None, first_input, budget, memory_mb, verdicts
        )
        if tests is not None:
            report = run_tests(
                program.prefix(len(program.fragments)),
                tests,
                timeout_s=timeout_s,
                memory_mb=memory_mb,
                compare=compare,
                stop_on_failure=crashed or not params.get("all_tests", False),
                deadline=budget.deadline,
            )
            last = len(solution.steps) - 1
            # After an earlier crash the last step's own merit is unknown: the crash is the
            # first error, and the failing tests only settle the answer.
            if not crashed or last in verdicts:
                verdicts[last] = _merge(verdicts.get(last), _tests_verdict(last, report))
            result.answer_correct = report.passed
        result.suggestions = [verdicts[i] for i in sorted(verdicts)]
        return calibrate(result)  # no table yet (no labeled code data): scores None

    def _check_prefixes(
        self,
        program: Program,
        include_last: bool,
        stdin: str | None,
        budget: _Budget,
        memory_mb: int,
        verdicts: dict[int, StepSuggestion],
    ) -> bool:
        """Run the prefixes in order; record the first crash. True when one crashed."""
        code_steps = program.code_steps
        runnable = code_steps if include_last else code_steps[:-1]
        for position, index in enumerate(runnable):
            following = code_steps[position + 1] if position + 1 < len(code_steps) else None
            if following is not None and _continues_block(program.fragments[following]):
                continue  # the prefix ends inside a block: its run would not be the program's
            code = program.prefix(index)
            state = prefix_state(code)
            if state == "incomplete":
                continue
            run = budget.run(code, stdin or "", memory_mb)
            if state == "invalid":
                verdicts[index] = _crash_verdict(index, program, run, syntax=True)
                return True
            if run.status not in _CRASH:
                continue
            if run.exception == "EOFError" and stdin is None:
                return False  # it wants input we do not have: no verdict, and none later
            verdicts[index] = _crash_verdict(index, program, run, syntax=False)
            return True
        return False


class _Budget:
    """One item's wall seconds for all its sandboxed runs (code_item_s), from its first run."""

    def __init__(self, seconds: float, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self.deadline = ItemDeadline(seconds, limit="code_item_s", spending="its sandboxed runs")

    def run(self, code: str, stdin: str, memory_mb: int) -> SandboxResult:
        """One run within what is left; raises the item's ItemSkipped when nothing is, or
        when the cut timeout ended the run (its timeout would not be the program's)."""
        given = self.deadline.cut(self.timeout_s)
        run = run_python(code, stdin=stdin, timeout_s=given, memory_mb=memory_mb)
        self.deadline.raise_if_cut(run.status is Status.TIMEOUT, given, self.timeout_s)
        return run


def _crash_verdict(
    index: int, program: Program, run: SandboxResult, *, syntax: bool
) -> StepSuggestion:
    kind = "syntax error" if syntax else ("timeout" if run.status is Status.TIMEOUT else "crash")
    evidence: dict[str, Any] = {
        "check": "prefix",
        "verdict": kind,
        "summary": f"the code up to this step ends in {run.exception or run.status}",
        "traceback": run.stderr[-4000:],
        "error_in_step": _traceback_step(program, run.stderr),
        "run": run.evidence(),
    }
    return StepSuggestion(step_index=index, value=-1, score=1.0, evidence=evidence)


def _tests_verdict(index: int, report: TestReport) -> StepSuggestion:
    failures = report.failures
    evidence: dict[str, Any] = {
        "check": "tests",
        "verdict": "passed" if report.passed else "failed",
        "summary": report.summary(),
        "tests_run": len(report.outcomes),
        "failures": [f.evidence() for f in failures[:MAX_FAILURES_IN_EVIDENCE]],
    }
    if report.passed:
        evidence["kind"] = TESTS_PASS
        return StepSuggestion(step_index=index, value=None, score=None, evidence=evidence)
    return StepSuggestion(step_index=index, value=-1, score=1.0, evidence=evidence)


def _merge(earlier: StepSuggestion | None, tests: StepSuggestion) -> StepSuggestion:
    if earlier is None:
        return tests
    # A crash verdict on the last step: it is the step's −1 (tests that pass after a crash
    # on the input of a prefix run do not undo it); keep both records.
    evidence = {**tests.evidence, "prefix": earlier.evidence}
    evidence.pop("kind", None)
    return StepSuggestion(tests.step_index, -1, earlier.score, evidence)


__all__ = ["CodeEngine", "Program", "extract_program", "prefix_state"]
