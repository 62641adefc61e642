"""An import file's bounds once decompressed: a gzip bomb fails fast with a clear error and
changes nothing (issue 24: a 1 MB gzip of short lines held a worker for 11 minutes)."""

import gzip
import json

import pytest

from labeling.importers import ImportFileError
from labeling.importers import reader as reader_module
from labeling.models import Problem
from labeling.services.imports import import_file
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

ROW = json.dumps({"problem": "1+1?", "answer": "2", "steps": ["1+1=2"]}) + "\n"


def _gzip(path, chunks):
    with gzip.open(path, "wb", compresslevel=9) as out:
        for chunk in chunks:
            out.write(chunk)
    return path


def test_a_gzip_bomb_is_refused_by_its_ratio(tmp_path, monkeypatch):
    monkeypatch.setattr(reader_module, "RATIO_AFTER", 1024 * 1024)
    path = _gzip(tmp_path / "bomb.jsonl.gz", [ROW.encode()] + [b"\n" * (1 << 20)] * 16)
    assert path.stat().st_size < 64 * 1024
    project = ProjectFactory()
    with pytest.raises(ImportFileError, match="decompression bomb") as exc:
        import_file(project=project, path=path)
    assert exc.value.file == "bomb.jsonl.gz" and exc.value.line > 1
    assert Problem.objects.filter(project=project).count() == 0


def test_the_line_count_is_capped(tmp_path, settings):
    settings.IMPORT_MAX_LINES = 50
    path = tmp_path / "many.jsonl"
    path.write_text(ROW * 51)
    project = ProjectFactory()
    with pytest.raises(ImportFileError, match="more than 50 lines") as exc:
        import_file(project=project, path=path)
    assert exc.value.line == 51
    assert Problem.objects.filter(project=project).count() == 0


def test_the_decompressed_size_is_capped(tmp_path, settings):
    settings.IMPORT_MAX_DECOMPRESSED_BYTES = 10_000
    path = _gzip(tmp_path / "big.jsonl.gz", [ROW.encode() * 200])
    with pytest.raises(ImportFileError, match="larger than 10000 bytes once decompressed"):
        import_file(project=ProjectFactory(), path=path)


def test_an_ordinary_gzip_is_imported(tmp_path, monkeypatch):
    monkeypatch.setattr(reader_module, "RATIO_AFTER", 1024)
    rows = "".join(
        json.dumps({"problem": f"What is {i}+{i * 7}?", "answer": str(8 * i), "steps": [f"{i}"]})
        + "\n"
        for i in range(3000)
    )
    path = _gzip(tmp_path / "ok.jsonl.gz", [rows.encode()])
    result = import_file(project=ProjectFactory(), path=path)
    assert result.problems_created == 3000


def _code_row(tests, name="p"):
    return json.dumps({"problem": f"Square {name}.", "steps": ["print(1)"], "tests": tests}) + "\n"


@pytest.mark.parametrize(
    ("tests", "says"),
    [
        ([{"input": "1", "output": "1"}] * 201, "201 tests; at most 200"),
        ("import math\n" + "assert True\n" * 201, "201 tests; at most 200"),
        ({"inputs": ["1"] * 201, "outputs": ["1"] * 201}, "201 tests"),
        ({"code": "assert True\n" * 201}, "201 tests"),
        ([{"input": "x" * 4_000_001, "output": ""}], "4000027 bytes of tests; at most 4000000"),
    ],
)
def test_a_problem_whose_tests_are_over_the_sandbox_budget_is_refused(tmp_path, tests, says):
    """The code source would skip it in every run (labeling/rules/code_tests.py): refused at
    import with file, line and field, and nothing of the file is written."""
    path = tmp_path / "code.jsonl"
    path.write_text(_code_row([{"input": "1", "output": "1"}], "ok") + _code_row(tests))
    project = ProjectFactory()
    with pytest.raises(ImportFileError, match=says) as exc:
        import_file(project=project, path=path)
    assert (exc.value.file, exc.value.line, exc.value.field) == ("code.jsonl", 2, "tests")
    assert "AUTOLABEL_LIMITS" in exc.value.message
    assert Problem.objects.filter(project=project).count() == 0


def test_an_operator_raises_the_import_bound(tmp_path, settings):
    settings.AUTOLABEL_LIMITS = {"code_tests": 500}
    path = tmp_path / "code.jsonl"
    path.write_text(_code_row([{"input": "1", "output": "1"}] * 201))
    result = import_file(project=ProjectFactory(), path=path)
    assert result.problems_created == 1
