"""Writing generated solutions: Solution and Step rows, generator = the completer's id."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import transaction

from autolabel.completers import completer_from_config
from autolabel.generation import (
    DEFAULT_N,
    GeneratedSolution,
    generate_solutions,
    normalized,
    rule_splitter,
)
from autolabel.rollouts.grading import answers_match
from labeling.models import Problem, Project, Solution, Step
from labeling.services.projects.metrics_version import metrics_version_bump_of_solutions

SOURCE = "generated"


def _external_id(problem: Problem, completer_id: str, text: str) -> str:
    digest = hashlib.sha256(f"{problem.pk}\x1f{completer_id}\x1f{normalized(text)}".encode())
    return f"gen:{digest.hexdigest()[:32]}"


def solutions_generate(
    *,
    project: Project,
    problem_ids: list[int],
    completer_params: dict[str, Any],
    n: int = DEFAULT_N,
    temperature: float = 0.7,
    top_p: float = 1.0,
    max_tokens: int = 1024,
    seed: int | None = 0,
) -> int:
    """Sample ``n`` solutions for each of the project's problems in ``problem_ids``; returns
    how many new solutions were written.

    Idempotent: a solution's external id hashes (problem, completer, normalized text), so
    re-running with the same seed writes nothing twice. Sampling happens outside any
    transaction; each problem's rows are written in one.
    """
    problems = list(
        Problem.objects.filter(project=project, pk__in=problem_ids).only("id", "text", "answer")
    )
    if not problems:
        return 0
    completer = completer_from_config(completer_params)
    generated = generate_solutions(
        completer,
        [p.text for p in problems],
        n=n,
        temperature=temperature,
        top_p=top_p,
        max_tokens=max_tokens,
        seed=seed,
        split=rule_splitter(project.step_split, project.step_split_regex),
    )
    settings: dict[str, Any] = {
        "n": n,
        "temperature": temperature,
        "top_p": top_p,
        "max_tokens": max_tokens,
        "seed": seed,
    }
    written = 0
    for problem, solutions in zip(problems, generated, strict=True):
        written += _write(project, problem, solutions, completer.id, settings)
    return written


def _write(
    project: Project,
    problem: Problem,
    solutions: list[GeneratedSolution],
    completer_id: str,
    settings: dict[str, Any],
) -> int:
    rows = {_external_id(problem, completer_id, s.text): s for s in solutions}
    with transaction.atomic():
        existing = set(
            Solution.objects.filter(project=project, external_id__in=rows).values_list(
                "external_id", flat=True
            )
        )
        fresh = [(eid, s) for eid, s in rows.items() if eid not in existing]
        created = Solution.objects.bulk_create(
            Solution(
                project=project,
                problem=problem,
                generator=completer_id[:200],
                final_answer=s.final_answer or "",
                answer_correct=(
                    answers_match(s.final_answer, problem.answer)
                    if s.final_answer and problem.answer
                    else None
                ),
                source=SOURCE,
                external_id=eid,
                metadata={"generation": settings},
            )
            for eid, s in fresh
        )
        Step.objects.bulk_create(
            Step(solution=solution, index=i, text=text)
            for solution, (_, s) in zip(created, fresh, strict=True)
            for i, text in enumerate(s.steps)
        )
        # The metrics' coverage counts the project's solutions: new ones, logged.
        metrics_version_bump_of_solutions(
            project_id=project.pk, solution_ids=[solution.pk for solution in created]
        )
    return len(created)
