"""CodeEngine: crash verdicts on the step that breaks, the tests' verdict on the last step."""

from annotate.queues import Queue
from autolabel.engines.base import SolutionInput
from autolabel.engines.code import CodeEngine, extract_program, prefix_state

ENGINE = CodeEngine()


def _solve(*steps: str, **params):
    return ENGINE(SolutionInput(problem="p", gold_answer="", steps=steps), params)


def _py(code: str) -> str:
    return f"```python\n{code}\n```"


def test_engine_identity():
    assert ENGINE.name == "code" and ENGINE.queue == Queue.DEFAULT


def test_a_crashing_step_gets_minus_one_with_its_traceback(run):
    result = _solve(
        "We keep the numbers in a list.",
        _py("xs = [3, 1, 2]"),
        _py("best = xs[10]"),
        _py("print(best)"),
    )
    assert result.source == "code" and result.agent == "sandbox/python"
    [crash] = result.suggestions
    assert crash.step_index == 2 and crash.value == -1
    assert "IndexError: list index out of range" in crash.evidence["traceback"]
    assert crash.evidence["error_in_step"] == 2 and result.answer_correct is None


def test_passing_tests_are_evidence_on_the_last_step_not_a_rating(run):
    tests = [{"input": "3\n", "output": "6\n"}, {"input": "10\n", "output": "20\n"}]
    result = _solve(
        "Read n.", _py("n = int(input())"), "Double it.", _py("print(2 * n)"), "Done.",
        tests=tests,
    )  # fmt: skip
    [verdict] = result.suggestions
    assert verdict.step_index == 4 and verdict.value is None and verdict.score is None
    assert verdict.evidence["kind"] == "tests pass"
    assert verdict.evidence["summary"] == "2/2 tests passed" and result.answer_correct is True


def test_failing_tests_put_minus_one_on_the_last_step_with_the_failure(run):
    result = _solve(_py("n = int(input())"), _py("print(n + n + 1)"), tests=[
        {"input": "3\n", "output": "6\n"}
    ])  # fmt: skip
    [verdict] = result.suggestions
    assert verdict.step_index == 1 and verdict.value == -1
    failure = verdict.evidence["failures"][0]
    assert failure["reason"] == "wrong output" and failure["stdout"] == "7\n"
    assert result.answer_correct is False


def test_assert_tests_and_unfenced_steps(run):
    steps = ("def add(a, b):", "    return a + b", "print(add(1, 2))")
    good = _solve(*steps, tests="assert add(2, 2) == 4")
    assert [(s.step_index, s.value) for s in good.suggestions] == [(2, None)]
    bad = _solve(*steps, tests={"code": "assert add(2, 2) == 5"})
    assert [(s.step_index, s.value) for s in bad.suggestions] == [(2, -1)]


def test_a_block_split_across_steps_is_not_a_crash(run):
    # Run alone, step 0 would loop until EOFError: it is only run with its loop body.
    steps = (
        _py("total = 0\nwhile True:\n    line = input()"),
        _py("    if line == 'end':\n        break\n    total += int(line)"),
        _py("print(total)"),
    )
    result = _solve(*steps, tests=[{"input": "1\n2\nend\n", "output": "3\n"}])
    assert [(s.step_index, s.value) for s in result.suggestions] == [(2, None)]


def test_a_timeout_in_a_prefix_is_a_crash(run):
    result = _solve(_py("x = 0"), _py("while True:\n    x += 1"), _py("print(x)"), timeout_s=0.5)
    [verdict] = result.suggestions
    assert verdict.step_index == 1 and verdict.evidence["verdict"] == "timeout"


def test_a_syntax_error_no_code_can_fix_is_a_crash(run):
    result = _solve(_py("x = 1"), _py("y = = 2"), _py("print(x)"))
    [verdict] = result.suggestions
    assert verdict.step_index == 1 and "SyntaxError" in verdict.evidence["traceback"]


def test_clean_code_without_tests_gets_nothing(run):
    assert _solve(_py("x = 1"), _py("print(x)")).suggestions == []


def test_needing_input_we_do_not_have_is_inconclusive(run):
    assert _solve(_py("n = int(input())"), _py("print(n)")).suggestions == []


def test_prose_only_solutions_get_nothing():
    result = _solve("Consider the sum.", "It is ```text\n3\n``` in the end.")
    assert result.suggestions == []


def test_extract_program_follows_fences_across_steps():
    program = extract_program(
        [
            "Code:\n```python\nx = 1",
            "y = 2\n```\nProse after.",
            "```bash\nls\n```",
            "```py\nz = 3\n```",
        ]
    )
    assert program.fragments == ["x = 1", "y = 2", None, "z = 3"]
    assert program.prefix(3) == "x = 1\ny = 2\nz = 3"
    assert program.step_of_line(2) == 1 and program.step_of_line(3) == 3


def test_prefix_states():
    assert prefix_state("def f():") == "incomplete"
    assert prefix_state("xs = [1,") == "incomplete"
    assert prefix_state("x = 1\nprint(x)") == "complete"
    assert prefix_state("x = = 1") == "invalid"
