"""An LLM critic (ProcessBench-style): the earliest wrong step of a solution, or none."""

from .parsing import parse_first_error
from .prompt import PROMPT_VERSION, judge_messages, tag_paragraphs
from .verdict import JudgeVerdict, judge_solution, majority, verdict_suggestions

__all__ = [
    "PROMPT_VERSION",
    "JudgeVerdict",
    "judge_messages",
    "judge_solution",
    "majority",
    "parse_first_error",
    "tag_paragraphs",
    "verdict_suggestions",
]
