"""Run untrusted Python (model-written code steps) in a confined child process.

``run_python`` runs one program (runner.py says what confines it); ``run_tests`` runs one
against a problem's tests (judge.py).
"""

from .judge import TestCase, TestOutcome, TestReport, outputs_match, parse_tests, run_tests
from .result import SandboxResult, SandboxUnavailable, Status
from .runner import Limits, run_python

__all__ = [
    "Limits",
    "SandboxResult",
    "SandboxUnavailable",
    "Status",
    "TestCase",
    "TestOutcome",
    "TestReport",
    "outputs_match",
    "parse_tests",
    "run_python",
    "run_tests",
]
