"""Fuzzed import files (hypothesis): every outcome is a whole import or an ImportFileError that
names the file, the line and the field, and an error leaves every table as it was. Huge lines
and deeply nested JSON are refused by the reader's limits, also through the service."""

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labeling.importers import PARSERS, ImportFileError, reader
from labeling.services.imports import import_file
from tests.factories import ProjectFactory
from tests.importers.conftest import DATA, raw_rows, table_counts

pytestmark = pytest.mark.django_db

SAMPLES = {
    "prm800k": "prm800k_sample.jsonl",
    "prm800k_mrmath": "prm800k_mrmath_redundant_sample.jsonl",
    "processbench": "processbench_sample.jsonl",
    "prmbench": "prmbench_sample.jsonl",
    "math_shepherd": "math_shepherd_sample.jsonl",
    "gsm8k": "gsm8k_sample.jsonl",
    "math": "math500_sample.jsonl",
}
HANDMADE: dict[str, dict[str, Any]] = {
    "steplab": {"problem": "1+1?", "answer": "2", "steps": ["1+1=2", "So 2."], "labels": [1, 1]},
    "trl": {"prompt": "1+1?", "completions": ["1+1=2", "So 2."], "labels": [True, True]},
    "graphsilo": {
        "problem": "Given a directed graph:\nNode 0 is connected to nodes 1, 2.\n"
        "Node 1 is connected to node 2.\nIs there a directed path from node 2 to node 0?",
        "answer": "False",
        "solution": "The DFS traversal start from node 2 is [2].\nSo the answer is False.",
        "task": "connectivity",
    },
    "finqa": {
        "id": "ABC/2020/page_1.pdf-1",
        "pre_text": ["revenue was $ 120 in 2020 ."],
        "post_text": ["."],
        "table": [["", "2020", "2019"], ["revenue", "$ 120", "$ 100"]],
        "qa": {
            "question": "what was the growth?",
            "program": "subtract(120, 100), divide(#0, 100)",
            "gold_inds": {"table_1": "the revenue of 2020 is $ 120 ;", "text_0": "revenue"},
            "exe_ans": 0.2,
        },
    },
    "messages": {
        "messages": [
            {"role": "user", "content": "1+1?"},
            {"role": "assistant", "content": "1+1=2"},
        ]
    },
    "embodied": {
        "task": "Put the mug in the drawer.",
        "initial_state": ["on(mug, table)"],
        "success": True,
        "steps": [
            {"kind": "action", "text": "grasp(mug)", "success": True, "effects": ["holding(mug)"]},
            {"kind": "subgoal", "text": "mug held", "preconditions": ["holding(mug)"]},
        ],
        "labels": [1, 1],
    },
    "alfworld": {
        "transcript": "Your task is to: look.\n> look\nYou are in the middle of a room.\n",
        "won": True,
    },
}


def _seed(fmt: str) -> dict[str, Any]:
    if fmt in HANDMADE:
        return HANDMADE[fmt]
    return raw_rows(SAMPLES[fmt])[0]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def mutated(draw, seed: dict[str, Any]) -> str:
    """One line: the seed row with a few keys dropped or replaced by any JSON, or garbage."""
    kind = draw(st.sampled_from(["valid", "mutated", "mutated", "garbage"]))
    if kind == "garbage":
        return draw(
            st.text(min_size=1, max_size=60).filter(lambda t: "\n" not in t and "\r" not in t)
        )
    row = json.loads(json.dumps(seed))
    if kind == "mutated":
        for _ in range(draw(st.integers(1, 3))):
            target: Any = row
            # Walk down a random path of dicts/lists, then drop or replace what is there.
            for _depth in range(draw(st.integers(0, 3))):
                children = list(target) if isinstance(target, dict) else list(range(len(target)))
                children = [c for c in children if isinstance(target[c], dict | list)]
                if not children:
                    break
                target = target[draw(st.sampled_from(children))]
            keys = list(target) if isinstance(target, dict) else list(range(len(target)))
            if not keys:
                continue
            key = draw(st.sampled_from(keys))
            if isinstance(target, dict) and draw(st.booleans()):
                del target[key]
            else:
                target[key] = draw(json_values)
    # NaN / Infinity written as the bare words JSON lacks: the reader must refuse them.
    return json.dumps(row)


def _write(tmp_path: Path, lines: list[str], n: list[int]) -> Path:
    n[0] += 1
    path = tmp_path / f"fuzz-{n[0]}.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", sorted(PARSERS))
def test_fuzzed_files_import_whole_or_fail_clearly(fmt, tmp_path):
    assert DATA.exists()
    project = ProjectFactory()
    seed = _seed(fmt)
    counter = [0]

    @settings(
        max_examples=25,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(lines=st.lists(mutated(seed), min_size=1, max_size=3))
    def check(lines: list[str]) -> None:
        path = _write(tmp_path, lines, counter)
        before = table_counts()
        try:
            result = import_file(project=project, path=path, fmt=fmt, labels_as="annotations")
        except ImportFileError as exc:
            assert exc.file == path.name
            assert exc.line is None or 1 <= exc.line <= len(lines)
            assert exc.message
            assert table_counts() == before, "a failed import left rows behind"
        else:
            assert result is not None
            assert table_counts()["Problem"] >= before["Problem"]

    check()


def _counts_after_refusal(tmp_path: Path, content: bytes, match: str) -> None:
    project = ProjectFactory()
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(content)
    before = table_counts()
    with pytest.raises(ImportFileError, match=match) as exc:
        import_file(project=project, path=path, fmt="steplab")
    assert exc.value.file == "hostile.jsonl"
    assert exc.value.line == 2
    assert table_counts() == before


def test_deeply_nested_json_is_refused_and_nothing_is_imported(tmp_path):
    ok = json.dumps({"problem": "1+1?", "steps": ["2"]}).encode()
    deep = b'{"problem": "p", "steps": ["a"], "x": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    _counts_after_refusal(
        tmp_path, ok + b"\n" + deep + b"\n", f"nested deeper than {reader.MAX_DEPTH}"
    )


def test_a_huge_line_is_refused_and_nothing_is_imported(tmp_path, monkeypatch):
    monkeypatch.setattr(reader, "MAX_LINE_BYTES", 4096)
    ok = json.dumps({"problem": "1+1?", "steps": ["2"]}).encode()
    huge = json.dumps({"problem": "p" * 10_000, "steps": ["a"]}).encode()
    _counts_after_refusal(tmp_path, ok + b"\n" + huge + b"\n", "longer than 4096 bytes")
