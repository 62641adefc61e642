"""run_tests: stdin/stdout cases and assert-style test code, with per-test evidence."""

import pytest

from autolabel.sandbox import TestCase, outputs_match, parse_tests, run_tests
from autolabel.sandbox.judge import split_assert_tests

ADD = "def add(a, b):\n    return a + b\n"
ECHO_SUM = "a, b = map(int, input().split())\nprint(a + b)\n"


def test_stdin_cases_pass_and_fail_with_evidence(run):
    cases = [TestCase("1 2\n", "3\n"), TestCase("2 2\n", "5\n", name="wrong"), TestCase("x\n", "1")]
    report = run_tests(ECHO_SUM, cases)
    assert [o.passed for o in report.outcomes] == [True, False, False]
    wrong, crash = report.failures
    assert wrong.name == "wrong" and wrong.reason == "wrong output"
    assert wrong.evidence()["stdout"] == "4\n" and wrong.evidence()["expected"] == "5\n"
    assert crash.reason == "ValueError" and "invalid literal" in crash.evidence()["stderr"]
    assert not report.passed and report.summary() == "1/3 tests passed"


def test_stop_on_failure_runs_no_further(run):
    cases = [TestCase("1 1\n", "3\n"), TestCase("1 2\n", "3\n")]
    report = run_tests(ECHO_SUM, cases, stop_on_failure=True)
    assert len(report.outcomes) == 1


def test_a_timeout_fails_only_its_own_case(run):
    code = "n = int(input())\nwhile n == 0:\n    pass\nprint(n)"
    report = run_tests(code, [TestCase("0\n", "0\n"), TestCase("7\n", "7\n")], timeout_s=0.5)
    assert [o.reason for o in report.outcomes] == ["timeout", "passed"]


def test_assert_tests_are_one_run_each(run):
    tests = (
        "import math\nassert add(1, 2) == 3\nassert add(2, 2) == 5\nx = 1\nassert add(x, 0) == 1\n"
    )
    report = run_tests(ADD, tests)
    assert [o.passed for o in report.outcomes] == [True, False, True]
    failed = report.failures[0]
    assert failed.reason == "AssertionError" and failed.source == "assert add(2, 2) == 5"


def test_humaneval_style_check_function(run):
    tests = "def check(candidate):\n    assert candidate(2, 3) == 5\n\ncheck(add)\n"
    assert run_tests(ADD, tests).passed
    assert not run_tests("def add(a, b):\n    return a - b\n", tests).passed


def test_an_early_exit_does_not_pass_assert_tests(run):
    report = run_tests(ADD + "import sys\nsys.exit(0)\n", "assert add(1, 1) == 3")
    assert report.outcomes[0].reason == "exited early" and not report.passed


def test_bad_test_code_is_an_error_of_the_problem_not_the_solution():
    with pytest.raises(ValueError, match="does not parse"):
        split_assert_tests("assert (")
    with pytest.raises(ValueError, match="no test statement"):
        split_assert_tests("import math\ndef f(): pass")


def test_output_comparison_modes():
    assert outputs_match("1 2  \n3\n\n", "1 2\n3")
    assert not outputs_match("1 2\n3\n", "1  2\n3\n")
    assert outputs_match("1 2\n3\n", "1  2 3", "tokens")
    assert not outputs_match("3\n", "3", "exact")


def test_parse_tests_shapes():
    assert parse_tests("assert f()") == "assert f()"
    assert parse_tests({"code": "assert f()"}) == "assert f()"
    assert parse_tests([{"input": "1\n", "output": "2\n", "name": "a"}]) == [
        TestCase("1\n", "2\n", "a")
    ]
    assert parse_tests([{"stdin": "1", "expected_output": "2"}]) == [TestCase("1", "2")]
    assert parse_tests({"inputs": ["1\n", "2\n"], "outputs": ["2\n", "4\n"]}) == [
        TestCase("1\n", "2\n"),
        TestCase("2\n", "4\n"),
    ]
    with pytest.raises(ValueError):
        parse_tests({"inputs": ["1"], "outputs": []})
    with pytest.raises(ValueError):
        parse_tests(42)
