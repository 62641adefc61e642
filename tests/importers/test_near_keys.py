"""Near-duplicates from stored band keys (labeling/services/imports/near_keys.py): the same
reports as the in-memory LSH (near_dups.NearIndex) they replace, clusters kept at import and
merged, the backfill, and an import's queries that do not grow with the project."""

import io
import json
from collections import Counter, defaultdict

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from labeling.models import Problem, ProblemBand, ProblemSignature, Project
from labeling.rules.near_dups import NearIndex, clusters
from labeling.services.imports import import_file, near_dups, near_keys
from labeling.services.projects.delete import project_purge
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

BASE = (
    "A gardener plants {a} rows of tulips along the northern fence of the old town park and "
    "waters them every second morning before the market opens. Each row holds {b} bulbs, and "
    "a neighbour brings {c} more bulbs every week during the spring. After the first frost one "
    "third of the bulbs in the outer rows fail to sprout while the inner rows all flower. "
    "How many tulips flower in the park by the end of the season if nothing else changes?"
)
X = BASE.format(a=12, b=30, c=15)
X1 = X.replace("tulips along", "tulips  ALONG").replace("neighbour brings", "neighbor brings")
X2 = X.replace("every week", "each week")
Z = X.replace("northern", "southern").replace("market", "bakery")  # near X and Y
Y = Z.replace("one third", "one half").replace("inner rows", "middle rows")
Y1 = Y.replace("waters them", "waters the rows")


TRAIN = (
    "A train leaves the station at {h} o'clock carrying {n} passengers. At the first stop "
    "{k} passengers get off and twice as many get on. At the second stop a third of the "
    "passengers leave the train. How many passengers are on the train after the second stop?"
)


def _text(i: int) -> str:
    return TRAIN.format(h=i % 12 + 1, n=100 + 7 * i, k=3 + i)


def _import(project, path, **kwargs):
    return import_file(project=project, path=path, fmt="steplab", **kwargs)


def _reword(text: str) -> str:
    return "  " + text.replace("How many", "how MANY").replace("first stop", "first  stop")


def _write(path, problems: list[tuple[str, str]]):
    with open(path, "w", encoding="utf-8") as f:
        for key, text in problems:
            row = {
                "problem_id": key,
                "id": f"{key}-s",
                "problem": text,
                "steps": [f"{key} step {k}" for k in range(2)],
                "labels": [1, -1],
            }
            f.write(json.dumps(row) + "\n")
    return path


def _reference(project: dict[str, str], rows: list[tuple[str, str]]) -> list[dict]:
    """What the in-memory screen reported: the project's problems in a NearIndex, each new
    problem matched, and indexed when it is not a near-duplicate."""
    index = NearIndex()
    for key, text in project.items():
        index.add(key, text)
    found, new = [], set()
    for line, (key, text) in enumerate(rows, 1):
        if key in project or key in new:
            continue
        new.add(key)
        like = index.match(text)
        if like is None:
            index.add(key, text)
            continue
        found.append(
            {"line": line, "near_id": like, "of": "existing" if like in project else "in_file"}
        )
    return found


def _reported(result) -> list[dict]:
    return [
        {k: e[k] for k in ("line", "near_id", "of")} for e in result.near_duplicates["examples"]
    ]


def test_the_same_near_duplicates_as_the_in_memory_index(tmp_path, monkeypatch):
    monkeypatch.setattr(near_dups, "EXAMPLES", 1000)  # every near-duplicate, to compare
    project = ProjectFactory()
    first = [(f"a-{i}", _text(i)) for i in range(20)]
    first += [("a-r3", _reword(_text(3))), ("a-e5", _text(5).upper()), ("a-x", X), ("a-x1", X1)]
    first += [("a-q", "Is 91 prime?"), ("a-q2", "is 91 prime"), ("a-z", Z)]
    result = _import(project, _write(tmp_path / "a.jsonl", first))
    assert _reported(result) == _reference({}, first)
    assert len(_reported(result)) >= 4  # reworded, exact and short copies within the file
    # Cross-import copies, copies of the kept copies, new problems and their own copies.
    second = [("b-r1", _reword(_text(1))), ("b-e3", "  " + _text(3)), ("b-rr3", _reword(_text(3)))]
    second += [("a-2", _text(2)), ("b-y", Y), ("b-y1", Y1), ("b-x2", X2), ("b-q", "IS 91 PRIME?")]
    second += [("b-n", _text(40)), ("b-n2", _reword(_text(40))), ("b-n3", _text(41))]
    result = _import(project, _write(tmp_path / "b.jsonl", second))
    expected = _reference(dict(first), second)
    assert _reported(result) == expected
    assert {e["of"] for e in expected} == {"existing", "in_file"}
    counts = Counter(e["of"] for e in expected)
    report = result.near_duplicates
    assert (report["existing"], report["in_file"]) == (counts["existing"], counts["in_file"])
    # Skip leaves out exactly those (of the project without the first file's copies).
    other = ProjectFactory()
    _import(other, tmp_path / "a.jsonl", near_duplicates="skip")
    left = {e["line"] for e in _reference({}, first)}
    kept_first = {k: t for line, (k, t) in enumerate(first, 1) if line not in left}
    assert set(Problem.objects.filter(project=other).values_list("external_id", flat=True)) == set(
        kept_first
    )
    skipped = _import(other, tmp_path / "b.jsonl", near_duplicates="skip")
    expected = _reference(kept_first, second)
    assert _reported(skipped) == expected
    lines = {e["line"] for e in expected}
    kept = {k for line, (k, _) in enumerate(second, 1) if line not in lines}
    assert skipped.problems_created == len(kept - set(kept_first))


def _clusters(project: Project) -> dict[str, set[str]]:
    by = defaultdict(set)
    for ext, name in Problem.objects.filter(project=project).values_list(
        "external_id", "near_cluster"
    ):
        by[name or ext].add(ext)
    return by


def test_clusters_are_kept_at_import_and_the_smaller_one_is_relabelled(tmp_path):
    # The preconditions, by the in-memory index: X's copies and Y's near each other, Z near
    # both, X and Y not.
    texts = {"x": X, "x1": X1, "x2": X2, "y": Y, "y1": Y1}
    apart = clusters(texts)
    assert apart["x"] == apart["x1"] == apart["x2"] != apart["y"] == apart["y1"]
    assert len(set(clusters({**texts, "z": Z}).values())) == 1  # Z joins them
    project = ProjectFactory()
    _import(project, _write(tmp_path / "a.jsonl", [("a0", X), ("a1", X1)]))
    _import(project, _write(tmp_path / "b.jsonl", [("b0", Y), ("b1", Y1)]))
    _import(project, _write(tmp_path / "c.jsonl", [("c0", X2)]))
    assert _clusters(project) == {"a0": {"a0", "a1", "c0"}, "b0": {"b0", "b1"}}
    # Z links the two: the smaller cluster (b0's) takes the larger one's name.
    _import(project, _write(tmp_path / "d.jsonl", [("d0", Z), ("d1", "2+2?")]))
    assert _clusters(project) == {"a0": {"a0", "a1", "c0", "b0", "b1", "d0"}, "d1": {"d1"}}
    assert Problem.objects.get(external_id="d1").near_cluster == ""  # a cluster of its own


def _state(project: Project) -> tuple:
    bands = sorted(
        ProblemBand.objects.filter(project=project).values_list(
            "problem__external_id", "band", "hash"
        )
    )
    return bands, {k: frozenset(v) for k, v in _clusters(project).items()}


def test_the_backfill_rebuilds_keys_and_clusters_as_imports_made_them(tmp_path):
    project = ProjectFactory(name="legacy")
    rows = [(f"a-{i}", _text(i)) for i in range(8)] + [
        ("a-x", X),
        ("a-x1", X1),
        ("a-r", _reword(_text(2))),
    ]
    _import(project, _write(tmp_path / "a.jsonl", rows))
    made = _state(project)
    groups = defaultdict(set)
    for key, rep in clusters(dict(rows)).items():
        groups[rep].add(key)
    assert set(made[1].values()) == {frozenset(g) for g in groups.values()}
    assert len(groups) < len(rows)  # x with x1, a-2 with its rewording
    # As imported before keys were stored: no band keys, no clusters, half the signatures.
    ProblemBand.objects.all().delete()
    Problem.objects.update(near_cluster="")
    ProblemSignature.objects.filter(problem__external_id__in=["a-x", "a-1"]).delete()
    out = io.StringIO()
    call_command("near_dup_keys", "--project", "legacy", stdout=out)
    assert out.getvalue() == f"legacy: {len(rows)} problems keyed\n"
    assert _state(project) == made
    assert ProblemSignature.objects.filter(problem__project=project).count() == len(rows)


def test_an_import_keys_a_project_without_keys_first(tmp_path, settings):
    project = ProjectFactory()
    _import(project, _write(tmp_path / "a.jsonl", [("a", _text(1))]))
    ProblemBand.objects.all().delete()
    ProblemSignature.objects.all().delete()
    result = _import(project, _write(tmp_path / "b.jsonl", [("b", _reword(_text(1)))]))
    assert result.near_duplicates["existing"] == 1
    assert ProblemSignature.objects.count() == 2
    # Another threshold, another band layout: the project's keys are made again.
    settings.NEAR_DUP_THRESHOLD = 0.7
    result = _import(project, _write(tmp_path / "c.jsonl", [("c", _reword(_text(1)) + "!")]))
    assert result.near_duplicates["existing"] == 1
    assert {b // 200 for b in ProblemBand.objects.values_list("band", flat=True)} == {9}


def _queries(project, path) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        _import(project, path)
    return [q["sql"].split()[0] for q in captured.captured_queries]


def test_an_imports_queries_do_not_grow_with_the_project(tmp_path, monkeypatch):
    """The same queries, and no signature of the project read but its candidates' (an index
    of the project in memory would read them all)."""
    read = []

    def counted(data):
        read.append(data)
        return from_bytes(data)

    from_bytes = near_keys.signature_from_bytes
    monkeypatch.setattr(near_keys, "signature_from_bytes", counted)
    small, large = ProjectFactory(), ProjectFactory()
    _import(small, _write(tmp_path / "s.jsonl", [(f"s{i}", _text(i)) for i in range(5)]))
    many = [(f"l{i}", _text(i)) for i in range(300)]
    _import(large, _write(tmp_path / "l.jsonl", many))
    new = [
        (f"n{i}", f"Problem number {i}: what is {i} times {i + 1} plus {i * 3}?") for i in range(40)
    ]
    path = _write(tmp_path / "n.jsonl", new)
    read.clear()
    assert _queries(small, path) == _queries(large, path)
    assert read == []
    # A near-duplicate of one of the large project's problems reads its candidates' signatures.
    _import(large, _write(tmp_path / "r.jsonl", [("r", _reword(_text(7)))]))
    assert 1 <= len(read) < len(many) // 10  # its LSH candidates only


def test_a_crowded_band_key_takes_at_most_key_max_problems(tmp_path, monkeypatch):
    monkeypatch.setattr(near_keys, "KEY_MAX", 2)
    project = ProjectFactory()
    rows = [
        (f"t{i}", X.replace("every second morning", f"every morning at {i} o'clock"))
        for i in range(6)
    ]
    result = _import(project, _write(tmp_path / "t.jsonl", rows))
    per_key = Counter(ProblemBand.objects.filter(project=project).values_list("band", "hash"))
    assert max(per_key.values()) == 2
    assert result.near_duplicates["in_file"] == len(_reference({}, rows))


def test_the_purge_deletes_keys_and_signatures(tmp_path):
    project = ProjectFactory()
    _import(project, _write(tmp_path / "a.jsonl", [("a", X), ("b", X1)]))
    assert ProblemBand.objects.filter(project=project).exists()
    Project.objects.filter(pk=project.pk).update(deleted_at=timezone.now())
    project_purge(project_id=project.pk)
    assert not ProblemBand.objects.exists() and not ProblemSignature.objects.exists()
    assert not Problem.objects.exists()


def test_an_imports_new_problems_take_a_few_hundred_bytes_each(db):
    """The screen keeps every new problem of a file to the end (near_table.NewProblems): a
    signature row, a hash, a flag and its band keys in arrays, under 1 KB a problem. As
    Python objects (a MinHash, the text, tuples of band keys in dicts and lists per problem)
    it took about 5.7 KB: 1.37 GB of peak RSS at a million solutions (124,606 problems)."""
    import random
    import tracemalloc

    from labeling.rules.near_dups import signature

    project = ProjectFactory()
    n, batch = 2_000, 500
    rng = random.Random(26)
    words = [f"w{k}" for k in range(5_000)]
    keys = [f"p{i}" for i in range(n)]
    texts = [" ".join(rng.choices(words, k=40)) for _ in range(n)]
    screen = near_keys.NearKeys(project=project)
    tracemalloc.start()
    try:
        # Growth from the end of the first batch to the end of the last: what every further
        # problem adds (a batch's own lookups are dropped at the next).
        first = None
        for start in range(0, n, batch):
            sigs = {i: signature(texts[i]) for i in range(start, start + batch)}
            screen.lookup(sigs.values())
            for i, sig in sigs.items():
                screen.add(keys[i], texts[i], sig, screen.matches(texts[i], sig), reportable=True)
            del sigs
            if first is None:
                first = tracemalloc.get_traced_memory()[0]
        held = (tracemalloc.get_traced_memory()[0] - first) / (n - batch)
    finally:
        tracemalloc.stop()
    assert held < 1_200, f"{held:.0f} bytes a new problem"
    assert len(screen._new) == n


def test_the_stored_signatures_and_band_keys_are_each_problems_own(tmp_path):
    """The store writes with COPY on PostgreSQL (issue 26): every new problem's signature
    bytes and band keys read back equal what near_dups computes from its text, and a later
    import finds near-duplicates through them."""
    from labeling.rules.near_dups import band_keys, signature, signature_bytes

    project = ProjectFactory()
    rows = [(f"t-{i}", _text(i)) for i in range(5)] + [("x", X), ("y", Y)]
    _import(project, _write(tmp_path / "a.jsonl", rows))
    text_of = dict(rows)
    stored = dict(
        ProblemSignature.objects.filter(problem__project=project).values_list(
            "problem__external_id", "hashvalues"
        )
    )
    assert {k: bytes(v) for k, v in stored.items()} == {
        key: signature_bytes(signature(text)) for key, text in rows
    }
    bands = defaultdict(set)
    for key, band, value in ProblemBand.objects.filter(project=project).values_list(
        "problem__external_id", "band", "hash"
    ):
        bands[key].add((band, value))
    assert bands  # problems whose signature equals an earlier one's add none
    for key, keys in bands.items():
        assert keys == set(band_keys(signature(text_of[key])))
    report = _import(project, _write(tmp_path / "b.jsonl", [("x1", X1)])).near_duplicates
    assert report["existing"] == 1
    assert text_of["x"][:50] in report["examples"][0]["near"]
