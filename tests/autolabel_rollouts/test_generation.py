"""Sampling new solutions: dedup and splitting (pure), and the service that writes them."""

import pytest

from autolabel.generation import build_solutions, generate_solutions, rule_splitter
from autolabel.generation_service import solutions_generate
from labeling.models import Solution, StepSplit
from tests.factories import ProblemFactory, ProjectFactory


class FixedCompleter:
    """Returns the given texts for every prompt, whatever n."""

    id = "fixed:test"
    tokenizer = None

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.prompts: list[str] = []
        self.kwargs: dict = {}

    def complete(self, prompts, **kwargs):
        self.prompts.extend(prompts)
        self.kwargs = kwargs
        return [list(self.texts) for _ in prompts]


TEXTS = [
    "Add them.\n2 + 2 = 4.\nSo \\boxed{4}.",
    "Add them.\n2 +  2 = 4.\n\nSo \\boxed{4}.",  # the first one, whitespace aside
    "   \n  ",
    "Guess.\nIt is \\boxed{5}.",
    "No answer here.",
]


def test_build_solutions_drops_duplicates_and_empties_and_splits() -> None:
    out = build_solutions(TEXTS, split=lambda t: [s for s in t.split("\n") if s.strip()])
    assert [s.steps for s in out] == [
        ("Add them.", "2 + 2 = 4.", "So \\boxed{4}."),
        ("Guess.", "It is \\boxed{5}."),
        ("No answer here.",),
    ]
    assert [s.final_answer for s in out] == ["4", "5", None]


@pytest.mark.django_db
def test_generate_solutions_prompts_each_problem_and_uses_the_project_rule() -> None:
    completer = FixedCompleter(TEXTS)
    result = generate_solutions(
        completer, ["P1", "P2"], n=5, seed=4, split=rule_splitter(StepSplit.PARAGRAPH)
    )
    assert len(result) == 2 and len(completer.prompts) == 2
    assert completer.prompts[0].startswith("### User:\nP1\n\nPlease reason step by step")
    assert completer.kwargs["n"] == 5 and completer.kwargs["seed"] == 4
    assert completer.kwargs["stop"] == ["\n### User:"]
    # Paragraph rule: each text left is one paragraph; the whitespace twin is dropped.
    assert [s.steps for s in result[0]] == [(TEXTS[0],), (TEXTS[3],), (TEXTS[4],)]


@pytest.mark.django_db
def test_solutions_generate_writes_solutions_and_steps_once() -> None:
    project = ProjectFactory(step_split=StepSplit.LINE)
    problem = ProblemFactory(project=project, text="What is 2 + 2?", answer="4")
    other = ProblemFactory(text="Elsewhere", answer="1")  # another project: ignored
    backend = {"kind": "scripted", "rules": [], "default": 0.5, "gold": "4"}
    written = solutions_generate(
        project=project,
        problem_ids=[problem.pk, other.pk],
        completer_params=backend,
        n=6,
        seed=2,
    )
    solutions = list(Solution.objects.filter(problem=problem).prefetch_related("steps"))
    # The scripted completer writes one of two texts: after dedup, both (p=0.5, 6 draws).
    assert written == len(solutions) == 2
    assert not Solution.objects.filter(problem=other).exists()
    by_answer = {s.final_answer: s for s in solutions}
    assert set(by_answer) == {"4", "-7919"}
    assert by_answer["4"].answer_correct is True and by_answer["-7919"].answer_correct is False
    right = by_answer["4"]
    assert right.generator.startswith("scripted:") and right.source == "generated"
    assert [st.text for st in right.steps.all()] == [
        "We finish the computation.",
        "The final answer is $\\boxed{4}$.",
    ]
    assert right.metadata["generation"]["n"] == 6 and right.external_id.startswith("gen:")
    again = solutions_generate(
        project=project, problem_ids=[problem.pk], completer_params=backend, n=6, seed=2
    )
    assert again == 0 and Solution.objects.filter(problem=problem).count() == 2
