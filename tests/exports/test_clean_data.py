"""Clean data at export: benchmark decontamination (exact and reworded copies) and splits by
near-duplicate cluster."""

import json
from collections import defaultdict

import pytest

from labeling.errors import ValidationFailed
from labeling.exporters import SplitPolicy, split_of
from labeling.exporters.options import filters_from
from labeling.services.imports import import_file
from tests.exports.conftest import DATA, raw_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def bench_dir(tmp_path, settings):
    root = tmp_path / "benchmarks"
    root.mkdir()
    settings.BENCHMARK_DIR = str(root)
    return root


def _reword(text: str) -> str:
    """A reworded copy: one word replaced, case, spacing and the end changed."""
    words = text.split()
    words[len(words) // 2] = "certain"
    return "  ".join(words).upper().rstrip("?.") + " ?"


def test_benchmark_problems_and_reworded_copies_are_left_out_and_counted(load, build, bench_dir):
    load("processbench_sample.jsonl")
    problems = [r["problem"] for r in raw_rows("processbench_sample.jsonl")]
    long = [p for p in problems if len(p.split()) >= 45]
    exact, reworded, clean = long[0], long[1], long[2:]
    # A MATH-style benchmark as a `problem` file, a GSM8K-style one as a `question` file.
    with open(bench_dir / "math_bench.jsonl", "w") as f:
        f.write(json.dumps({"problem": " " + exact.lower() + "  "}) + "\n")
        f.write(json.dumps({"problem": "An unrelated problem about seven cats and a dog."}) + "\n")
    with open(bench_dir / "gsm_bench.jsonl", "w") as f:
        f.write(json.dumps({"question": _reword(reworded)}) + "\n")

    before = build("trl", split_policy={"mode": "none"})
    export = build(
        "trl",
        split_policy={"mode": "none"},
        filters={"decontaminate": [{"file": "math_bench.jsonl"}, {"file": "gsm_bench.jsonl"}]},
    )
    prompts = {row["prompt"] for row in (json.loads(x) for x in _lines(export))}
    assert exact not in prompts and reworded not in prompts
    assert all(p in prompts for p in clean if p in _prompts(before))
    left = before.row_count - export.row_count
    stats = export.stats["decontaminated"]
    assert stats["math_bench.jsonl"]["problems"] == 1
    assert stats["gsm_bench.jsonl"]["problems"] == 1
    assert sum(s["solutions"] for s in stats.values()) == left > 0
    card = export.card
    assert "### Decontamination" in card
    assert "| math_bench.jsonl | 1 |" in card and "| gsm_bench.jsonl | 1 |" in card


def _lines(export):
    from tests.exports.conftest import file_bytes

    return file_bytes(export).decode().splitlines()


def _prompts(export):
    return {json.loads(x)["prompt"] for x in _lines(export)}


def test_decontaminate_is_validated_when_the_export_is_created(bench_dir):
    (bench_dir / "ok.jsonl").write_text('{"problem": "x"}\n')
    assert filters_from({"decontaminate": [{"file": "ok.jsonl"}]}).decontaminate[0].file
    for bad, field in [
        ([{"file": "../etc/passwd"}], "filters.decontaminate[0].file"),
        ([{"file": "missing.jsonl"}], "filters.decontaminate[0].file"),
        ([{"file": "ok.jsonl", "hub": "a/b"}], "filters.decontaminate[0]"),
        ([{"hub": "not a repo"}], "filters.decontaminate[0]"),
        ([{"file": "ok.jsonl", "extra": "1"}], "filters.decontaminate[0].extra"),
        ([{"file": "ok.jsonl"}] * 6, "filters.decontaminate"),
        ("ok.jsonl", "filters.decontaminate"),
    ]:
        with pytest.raises(ValidationFailed) as err:
            filters_from({"decontaminate": bad})
        assert err.value.details["field"] == field, bad


def test_a_bad_benchmark_file_fails_the_export_naming_the_line(project, build, bench_dir):
    import_file(project=project, path=DATA / "processbench_sample.jsonl", fmt="auto")
    (bench_dir / "b.jsonl").write_text('{"problem": "x"}\n{"answer": 3}\n')
    export = build("trl", filters={"decontaminate": [{"file": "b.jsonl"}]}, expect="failed")
    assert "b.jsonl, line 2" in export.error["message"]


def _near_dup_file(path, pairs: int):
    with open(path, "w", encoding="utf-8") as f:
        for p in range(pairs):
            text = (
                f"A farmer has {p} sheep and {p + 3} goats in field number {p}. Every morning "
                f"she buys {2 * p + 1} more animals at the market and sells half of the goats "
                "to her neighbour, who keeps them in a barn by the river. How many animals "
                "does the farmer own at the end of the week?"
            )
            copy = text.replace("neighbour", "neighbor")  # a reworded copy
            for k, problem in enumerate((text, copy)):
                row = {
                    "problem": problem,
                    "answer": str(p),
                    "steps": [f"pair {p} copy {k} step {s}" for s in range(3)],
                    "labels": [1, 1, 1],
                    "source": "synthetic",
                }
                f.write(json.dumps(row) + "\n")
    return path


def test_near_duplicate_problems_land_in_one_split(project, build, tmp_path):
    path = _near_dup_file(tmp_path / "pairs.jsonl", 40)
    import_file(project=project, path=path, fmt="steplab", labels_as="annotations")
    export = build("trl", split_policy={"train": 0.5, "validation": 0.0, "test": 0.5})
    by_pair = defaultdict(set)
    for row in (json.loads(x) for x in _lines(export)):
        by_pair[row["prompt"].replace("neighbor", "neighbour")].add(row["split"])
    assert len(by_pair) == 40
    assert all(len(s) == 1 for s in by_pair.values())
    assert {s for (s,) in by_pair.values()} == {"train", "test"}
    # Split by each problem's own key, many pairs would cross train and test.
    policy = SplitPolicy(train=0.5, validation=0.0, test=0.5)
    from labeling.importers.ids import problem_id
    from labeling.models import Problem

    own = {
        t: split_of(e or problem_id(t), policy)
        for e, t in Problem.objects.filter(project=project).values_list("external_id", "text")
    }
    crossing = sum(own[t] != own[t.replace("neighbour", "neighbor")] for t in by_pair)
    assert crossing > 5


def test_the_api_and_the_command_take_decontaminate(project, load, bench_dir, tmp_path):
    from django.core.management import call_command
    from rest_framework.test import APIClient

    from labeling.models import Export
    from tests.factories import MembershipFactory, UserFactory

    load("processbench_sample.jsonl")
    first = raw_rows("processbench_sample.jsonl")[0]["problem"]
    (bench_dir / "b.jsonl").write_text(json.dumps({"problem": first}) + "\n")
    admin = UserFactory()
    MembershipFactory(project=project, user=admin, role="admin")
    client = APIClient()
    client.force_authenticate(admin)
    url = f"/api/projects/{project.pk}/exports/"
    bad = {"format": "trl", "filters": {"decontaminate": [{"file": "nope.jsonl"}]}}
    response = client.post(url, bad, "json")
    assert response.status_code == 400, response.content
    assert "nope.jsonl" in response.json()["error"]["message"]
    assert not Export.objects.exists()
    ok = {"format": "trl", "filters": {"decontaminate": [{"file": "b.jsonl"}]}}
    response = client.post(url, ok, "json")
    assert response.status_code == 202, response.content
    assert Export.objects.get().filters["decontaminate"] == [{"file": "b.jsonl"}]
    out = tmp_path / "out"
    call_command(
        "export", "--project", project.name, "--format", "trl", "--decontaminate", "b.jsonl",
        "--output", str(out), "--no-progress",
    )  # fmt: skip
    built = Export.objects.order_by("-id").first()
    assert built.stats["decontaminated"]["b.jsonl"]["problems"] == 1
    assert "| b.jsonl | 1 |" in (out / "README.md").read_text()


def test_a_hub_benchmark_split_decontaminates(load, build, settings, monkeypatch):
    from huggingface_hub import constants

    from tests.exports.hub_standin import Repo, hub_standin

    load("processbench_sample.jsonl")
    problems = [r["problem"] for r in raw_rows("processbench_sample.jsonl")]
    target = next(p for p in problems if len(p.split()) >= 45)
    rows = [{"question": _reword(target)}, {"question": "What is 2 + 2?"}]
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    with hub_standin() as hub:
        settings.HF_ENDPOINT, settings.HF_TOKEN = hub.url, "hf_test_token"
        oid = "a" * 40
        hub.repos["bench/gsm"] = Repo(
            repo_id="bench/gsm",
            private=False,
            owner_token="hf_test_token",
            commits={oid: {"data/test.jsonl": data}},
            refs={"main": oid},
        )
        benchmark = {"hub": "bench/gsm", "config": "default", "split": "test"}
        export = build("trl", split_policy={"mode": "none"}, filters={"decontaminate": [benchmark]})
    assert target not in _prompts(export)
    label = "hf://datasets/bench/gsm (default/test)"
    assert export.stats["decontaminated"][label]["problems"] == 1
    assert f"| {label} | 1 |" in export.card
