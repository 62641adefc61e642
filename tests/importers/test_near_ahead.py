"""The near-duplicate screen's signatures computed ahead on the parsing thread
(NearDupScreen.ahead, issue 26): each new problem's once, the same reports as computing them
on the writing thread, nothing left behind, and paused on a re-import."""

import json
import threading

import pytest

from labeling.services.imports import import_file, near_dups, parsing
from labeling.services.imports.near_dups import NearDupScreen
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

TEXT = (
    "A train leaves the station at {h} o'clock carrying {n} passengers. At the first stop "
    "{k} passengers get off and twice as many get on. At the second stop a third of the "
    "passengers leave the train. How many passengers are on the train after the second stop?"
)


def _write(path, count: int):
    with open(path, "w", encoding="utf-8") as f:
        for i in range(count):
            text = TEXT.format(h=i % 12 + 1, n=100 + 7 * i, k=3 + i)
            row = {"problem_id": f"p{i}", "problem": text, "steps": ["a", "b"], "labels": [1, 1]}
            f.write(json.dumps(row) + "\n")
    return path


@pytest.fixture
def screens(monkeypatch):
    """Every screen an import makes, and the signatures computed, by thread name."""
    made: list[NearDupScreen] = []
    calls: list[str] = []
    real_rows, real_signature = NearDupScreen.rows, near_dups.signature

    def rows(self, batch):
        if self not in made:
            made.append(self)
        return real_rows(self, batch)

    def signature(text):
        calls.append(threading.current_thread().name)
        return real_signature(text)

    monkeypatch.setattr(NearDupScreen, "rows", rows)
    monkeypatch.setattr(near_dups, "signature", signature)
    monkeypatch.setattr(parsing, "BATCH_SOLUTIONS", 2)
    return made, calls


def test_signatures_come_from_the_parsing_thread_once_each_and_none_stay(tmp_path, screens):
    made, calls = screens
    path = _write(tmp_path / "a.jsonl", 30)
    project = ProjectFactory()
    ahead = import_file(project=project, path=path, fmt="steplab").near_duplicates
    assert len(calls) == 30  # one per new problem
    assert set(calls) == {"read-ahead"}  # none on the writing thread
    assert made[0]._ahead == {}  # each taken by the batch that first shows its problem
    assert ahead["in_file"] > 0  # some near-duplicates among them

    # The same report when computed on the writing thread (the screen without `ahead`).
    calls.clear()
    other = ProjectFactory()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(NearDupScreen, "ahead", lambda self, batches: batches)
        plain = import_file(project=other, path=path, fmt="steplab").near_duplicates
    assert len(calls) == 30 and "read-ahead" not in calls
    assert plain == ahead


def test_a_re_import_stops_computing_signatures_ahead(tmp_path, screens):
    made, calls = screens
    path = _write(tmp_path / "a.jsonl", 30)
    project = ProjectFactory()
    import_file(project=project, path=path, fmt="steplab")
    calls.clear()
    again = import_file(project=project, path=path, fmt="steplab")
    assert again.solutions_created == 0
    # Paused once a batch brought no new problem: at most the batches parsed before that
    # one was screened (read_ahead's depth of 2, one being handed over, one being parsed),
    # of the file's 15.
    assert len(calls) <= 2 * 4
    assert made[-1]._ahead.keys() <= {f"p{i}" for i in range(30)}


def test_a_bad_line_in_the_last_batch_leaves_nothing(tmp_path, screens):
    """Atomic with the signatures computed ahead: the batches before the bad line were
    written and their signatures taken; the bad one ends the import and nothing stays."""
    from labeling.importers import ImportFileError
    from labeling.models import Problem, ProblemBand, ProblemSignature

    path = _write(tmp_path / "a.jsonl", 9)
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({"problem": "Q?", "steps": ["a"], "labels": [1, 1]}) + "\n")
    project = ProjectFactory()
    with pytest.raises(ImportFileError) as caught:
        import_file(project=project, path=path, fmt="steplab")
    assert caught.value.line == 10
    assert not Problem.objects.filter(project=project).exists()
    assert not ProblemBand.objects.filter(project=project).exists()
    assert not ProblemSignature.objects.exists()
