r"""Prompts for rollouts and solution generation.

A rollout prompt is the problem as a user turn, with the instruction to reason step by step
and box the final answer, followed by the solution's steps so far written as the beginning
of the assistant's answer, so the model continues from the next step.

The user turn is rendered with the tokenizer's chat template when the backend has one
(``tokenizer.apply_chat_template(..., add_generation_prompt=True)``), and otherwise with
:data:`PLAIN_TEMPLATE`::

    ### User:
    <problem>

    Please reason step by step, and put your final answer within \boxed{}.

    ### Assistant:
    <step 1>
    <step 2>
    ...

(each step followed by the separator, a newline by default). With the plain template a
base model is stopped at :data:`PLAIN_STOP`, where it would start a new user turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

INSTRUCTION = r"Please reason step by step, and put your final answer within \boxed{}."
PLAIN_TURN = "### {role}:\n{content}\n\n"
PLAIN_TEMPLATE = PLAIN_TURN + "### Assistant:\n"  # one user turn, then the answer
PLAIN_STOP = ("\n### User:",)
DEFAULT_SEPARATOR = "\n"


@dataclass(frozen=True)
class RolloutPrompt:
    text: str  # what the completer continues
    assistant_prefix: str  # the steps so far as written into the answer; graded with it


def has_chat_template(tokenizer: Any) -> bool:
    return tokenizer is not None and bool(getattr(tokenizer, "chat_template", None))


def render_chat(messages: list[dict[str, str]], *, tokenizer: Any = None) -> str:
    """The conversation as one prompt string, ready for the assistant's next turn."""
    if has_chat_template(tokenizer):
        return tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    turns = "".join(
        PLAIN_TURN.format(role=m["role"].capitalize(), content=m["content"]) for m in messages
    )
    return turns + "### Assistant:\n"


def default_stop(tokenizer: Any) -> tuple[str, ...] | None:
    """Stop strings the prompt format needs (none when a chat template ends turns itself)."""
    return None if has_chat_template(tokenizer) else PLAIN_STOP


def problem_message(problem: str) -> str:
    return f"{problem.strip()}\n\n{INSTRUCTION}"


def rollout_prompt(
    problem: str,
    steps: list[str] | tuple[str, ...],
    *,
    tokenizer: Any = None,
    separator: str = DEFAULT_SEPARATOR,
) -> RolloutPrompt:
    """The prompt that continues a solution after ``steps`` (none: a fresh solution)."""
    head = render_chat([{"role": "user", "content": problem_message(problem)}], tokenizer=tokenizer)
    prefix = "".join(step.strip() + separator for step in steps)
    return RolloutPrompt(text=head + prefix, assistant_prefix=prefix)


def solution_prompt(problem: str, *, tokenizer: Any = None) -> str:
    """The prompt for a whole new solution to ``problem``."""
    return rollout_prompt(problem, [], tokenizer=tokenizer).text
