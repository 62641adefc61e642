"""The critic prompt of ProcessBench (Zheng et al. 2024): find the earliest wrong paragraph."""

from __future__ import annotations

from collections.abc import Sequence

PROMPT_VERSION = "processbench-1"

TEMPLATE = """\
The following is a math problem and a solution (split into paragraphs, enclosed with tags \
and indexed from 0):

[Math Problem]

{problem}

[Solution]

{tagged_response}

Your task is to review and critique the solution paragraph by paragraph. Once you identify \
an error in a paragraph, return the index of the paragraph where the earliest error occurs. \
Otherwise, return the index of -1 (which typically denotes "not found").

Please put your final answer (i.e., the index) in \\boxed{{}}."""


def tag_paragraphs(steps: Sequence[str]) -> str:
    return "\n\n".join(
        f"<paragraph_{i}>\n{step.strip()}\n</paragraph_{i}>" for i, step in enumerate(steps)
    )


def judge_messages(problem: str, steps: Sequence[str]) -> list[dict[str, str]]:
    content = TEMPLATE.format(problem=problem.strip(), tagged_response=tag_paragraphs(steps))
    return [{"role": "user", "content": content}]
