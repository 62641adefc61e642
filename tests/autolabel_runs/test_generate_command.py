import json

import pytest
from django.core.management import CommandError, call_command

from labeling.models import Solution
from tests.factories import ProblemFactory, ProjectFactory

pytestmark = pytest.mark.django_db

BACKEND = {"kind": "scripted", "default": 1.0, "gold": "4", "name": "scripted"}


def test_generates_solutions_for_problems_without_any(capsys):
    project = ProjectFactory(name="Gen")
    for _ in range(2):
        ProblemFactory(project=project, answer="4")
    call_command(
        "generate_solutions",
        "--project",
        "Gen",
        "--backend",
        json.dumps(BACKEND),
        "--n",
        "3",
        "--only-without-solutions",
    )
    created = Solution.objects.filter(project=project)
    assert created.exists()
    assert all(s.steps.exists() for s in created)
    first = created.count()
    assert f"{first} new solutions for 2 problems" in capsys.readouterr().out
    # Every problem now has solutions: a second call with the filter samples nothing.
    call_command(
        "generate_solutions",
        "--project",
        "Gen",
        "--backend",
        json.dumps(BACKEND),
        "--only-without-solutions",
    )
    assert Solution.objects.filter(project=project).count() == first


def test_a_bad_backend_is_a_clear_error():
    ProjectFactory(name="Gen2")
    with pytest.raises(CommandError, match="--backend"):
        call_command("generate_solutions", "--project", "Gen2", "--backend", '{"kind": "x"}')
