"""Near-duplicate problems at import: reported (of the project's, within the file, examples),
skipped on request, and signatures stored for the next import."""

import json

import pytest
from django.core.management import call_command

from labeling.errors import ValidationFailed
from labeling.models import Problem, ProblemBand, ProblemSignature, Solution
from labeling.services.imports import import_file
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

BASE = (
    "A train leaves the station at {h} o'clock carrying {n} passengers. At the first stop "
    "{k} passengers get off and twice as many get on. At the second stop a third of the "
    "passengers leave the train. How many passengers are on the train after the second stop?"
)


def _text(i: int) -> str:
    return BASE.format(h=i % 12 + 1, n=100 + 7 * i, k=3 + i)


def _write(path, problems: list[str], solutions: int = 2):
    with open(path, "w", encoding="utf-8") as f:
        for p, text in enumerate(problems):
            for s in range(solutions):
                row = {
                    "problem_id": f"{path.stem}-{p}",
                    "id": f"{path.stem}-{p}-{s}",
                    "problem": text,
                    "steps": [f"{path.stem} {p}.{s} step {k}" for k in range(2)],
                    "labels": [1, -1],
                }
                f.write(json.dumps(row) + "\n")
    return path


def _reworded(text: str) -> str:
    return "  " + text.replace("How many", "how MANY").replace("first stop", "first  stop")


def test_import_reports_near_duplicates_of_the_project_and_within_the_file(tmp_path):
    project = ProjectFactory()
    first = [_text(i) for i in range(10)]
    import_file(project=project, path=_write(tmp_path / "a.jsonl", first), fmt="steplab")
    assert ProblemSignature.objects.filter(problem__project=project).count() == 10
    # Two reworded copies of the project's problems, one new problem and its own copy.
    new = _text(50)
    second = [_reworded(first[2]), _reworded(first[7]), new, new.replace("o'clock", "o’clock")]
    second.append("What is the sum of the first 100 prime numbers?")
    result = import_file(project=project, path=_write(tmp_path / "b.jsonl", second), fmt="steplab")
    report = result.near_duplicates
    assert report["existing"] == 2 and report["in_file"] == 1 and report["mode"] == "keep"
    assert [e["line"] for e in report["examples"]] == [1, 3, 7]
    assert report["examples"][0]["near"] == first[2][:200]
    assert report["examples"][0]["near_id"] == "a-2"
    assert result.problems_created == 5  # kept
    assert ProblemSignature.objects.filter(problem__project=project).count() == 15


def test_skip_leaves_near_duplicates_out_with_their_solutions(tmp_path):
    project = ProjectFactory()
    first = [_text(i) for i in range(6)]
    import_file(project=project, path=_write(tmp_path / "a.jsonl", first), fmt="steplab")
    second = [_reworded(first[0]), _text(60), _reworded(_text(60)), "Is 91 prime?"]
    result = import_file(
        project=project,
        path=_write(tmp_path / "b.jsonl", second, solutions=3),
        fmt="steplab",
        near_duplicates="skip",
    )
    report = result.near_duplicates
    assert (report["existing"], report["in_file"], report["skipped_solutions"]) == (1, 1, 6)
    assert result.problems_created == 2 and result.solutions_created == 6
    texts = set(Problem.objects.filter(project=project).values_list("text", flat=True))
    assert _text(60) in texts and "Is 91 prime?" in texts
    assert _reworded(first[0]) not in texts and _reworded(_text(60)) not in texts
    assert Solution.objects.filter(problem__project=project).count() == 6 * 2 + 6
    with pytest.raises(ValidationFailed):
        import_file(project=project, path=tmp_path / "b.jsonl", near_duplicates="drop")


def test_problems_without_signatures_get_them_and_are_checked(tmp_path):
    project = ProjectFactory()
    import_file(project=project, path=_write(tmp_path / "a.jsonl", [_text(1)]), fmt="steplab")
    # As imported before signatures and band keys were stored.
    ProblemBand.objects.all().delete()
    ProblemSignature.objects.all().delete()
    result = import_file(
        project=project, path=_write(tmp_path / "b.jsonl", [_reworded(_text(1))]), fmt="steplab"
    )
    assert result.near_duplicates["existing"] == 1
    assert ProblemSignature.objects.count() == 2


def test_the_import_command_reports_and_skips(tmp_path, capsys):
    project = ProjectFactory(name="dups")
    path = _write(tmp_path / "c.jsonl", [_text(3), _reworded(_text(3))])
    call_command(
        "import", str(path), "--project", "dups", "--format", "steplab",
        "--near-duplicates", "skip", "--no-progress",
    )  # fmt: skip
    out = capsys.readouterr().out
    assert "near-duplicate problems (skipped): 0 of the project's, 1 within the file" in out
    assert "line 3:" in out
    assert Problem.objects.filter(project=project).count() == 1
