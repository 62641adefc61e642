"""Parsers alone: real rows in, dataclasses out; no database."""

import copy
import json
import re

import pytest

from labeling.importers import ImportFileError, ParsedRow, ParseOptions, detect_format, open_rows

from .conftest import DATA, raw_rows

EXPECTED_FORMATS = {
    "prm800k_sample.jsonl": "prm800k",
    "prm800k_mrmath_redundant_sample.jsonl": "prm800k_mrmath",
    "processbench_sample.jsonl": "processbench",
    "prmbench_sample.jsonl": "prmbench",
    "gsm8k_sample.jsonl": "gsm8k",
    "gsm8k_model_solutions_sample.jsonl": "gsm8k",
    "math500_sample.jsonl": "math",
    "math_shepherd_sample.jsonl": "math_shepherd",
}


def parse(path, fmt: str = "auto", options: ParseOptions | None = None) -> list[ParsedRow]:
    with open_rows(path, fmt=fmt, filename=path.name, options=options) as rows:
        return list(rows)


@pytest.mark.parametrize(("name", "fmt"), sorted(EXPECTED_FORMATS.items()))
def test_auto_detects_every_shared_file(name, fmt):
    assert detect_format(raw_rows(name)[0]) == fmt
    with open_rows(DATA / name, filename=name) as rows:
        parsed = list(rows)
        assert rows.format == fmt
        assert rows.rows == len(parsed) == len(raw_rows(name))
        assert rows.bytes_done == (DATA / name).stat().st_size


# --- PRM800K ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def prm800k() -> list[ParsedRow]:
    return parse(DATA / "prm800k_sample.jsonl")


def test_prm800k_human_completion_is_the_trajectory_step_and_an_alternative(prm800k):
    raw = raw_rows("prm800k_sample.jsonl")[0]["label"]["steps"][1]
    step = prm800k[0].solutions[0].steps[1]
    assert raw["chosen_completion"] is None and isinstance(raw["human_completion"], dict)
    assert step.text == raw["human_completion"]["text"].strip()
    assert step.label is None  # PRM800K leaves human steps unrated
    assert len(step.alternatives) == len(raw["completions"]) + 1
    human = step.alternatives[-1]
    assert (human.is_human, human.is_chosen, human.metadata) == (True, True, {"source": "human"})
    assert [a.rating for a in step.alternatives[:-1]] == [c["rating"] for c in raw["completions"]]
    assert not any(a.is_chosen for a in step.alternatives[:-1])


def test_prm800k_chosen_alternative_is_the_step_and_keeps_every_completion(prm800k):
    raw = raw_rows("prm800k_sample.jsonl")[1]["label"]["steps"][5]
    step = prm800k[1].solutions[0].steps[5]
    assert raw["chosen_completion"] == 3
    assert step.text == raw["completions"][3]["text"].strip()
    assert step.label == raw["completions"][3]["rating"]
    assert [a.is_chosen for a in step.alternatives] == [i == 3 for i in range(7)]
    assert [(a.text, a.rating, a.flagged, a.position) for a in step.alternatives] == [
        (c["text"], c["rating"], c["flagged"], i) for i, c in enumerate(raw["completions"])
    ]


def test_prm800k_all_null_last_step_is_no_step_but_is_kept_in_metadata(prm800k):
    raw = raw_rows("prm800k_sample.jsonl")[2]
    solution = prm800k[2].solutions[0]
    assert raw["label"]["steps"][-1] == {
        "completions": None,
        "human_completion": None,
        "chosen_completion": None,
    }
    assert len(solution.steps) == len(raw["label"]["steps"]) - 1
    meta = solution.metadata["prm800k"]
    assert meta["trailing_steps"] == [raw["label"]["steps"][-1]]
    assert meta["finish_reason"] == solution.finish_reason == "give_up"


def test_prm800k_unchosen_unrated_last_step_is_kept_in_metadata(prm800k):
    raw = raw_rows("prm800k_sample.jsonl")[3]
    solution = prm800k[3].solutions[0]
    assert len(raw["label"]["steps"]) == 30
    assert len(solution.steps) == 29
    assert solution.metadata["prm800k"]["trailing_steps"] == [raw["label"]["steps"][29]]


def test_prm800k_phase2_uses_pre_generated_steps_and_labels_up_to_the_error(prm800k):
    raw = raw_rows("prm800k_sample.jsonl")[6]
    pre = raw["question"]["pre_generated_steps"]
    solution = prm800k[6].solutions[0]
    rated = raw["label"]["steps"]
    assert (len(pre), len(rated), raw["label"]["finish_reason"]) == (13, 7, "found_error")
    assert [s.text for s in solution.steps] == [t.strip() for t in pre]
    assert [s.label for s in solution.steps] == [s["completions"][0]["rating"] for s in rated] + [
        None
    ] * 6
    assert solution.steps[6].label == -1
    last = solution.steps[6].alternatives
    assert len(last) == 4 and not any(a.is_chosen for a in last)
    assert [a.metadata.get("pre_generated", False) for a in last] == [True, False, False, False]
    assert solution.finish_reason == "found_error"
    assert solution.final_answer == raw["question"]["pre_generated_answer"]
    meta = solution.metadata["prm800k"]
    for key in (
        "labeler",
        "timestamp",
        "generation",
        "is_quality_control_question",
        "is_initial_screening_question",
    ):
        assert meta[key] == raw[key]
    assert meta["total_time"] == raw["label"]["total_time"] == solution.time_spent_ms
    assert meta["phase"] == 2 and meta["pre_generated_verifier_score"] > 0
    assert solution.labeled_at.isoformat().startswith(raw["timestamp"])
    assert prm800k[6].problem.reference_solution == raw["question"]["ground_truth_solution"]


def test_prm800k_screening_question_with_null_ground_truth(prm800k):
    problem = prm800k[8].problem
    assert (problem.answer, problem.reference_solution) == ("", "")
    assert prm800k[8].solutions[0].metadata["prm800k"]["generation"] == -1


def test_prm800k_ids_and_agents(prm800k):
    raws = raw_rows("prm800k_sample.jsonl")
    for row, raw in zip(prm800k, raws, strict=True):
        solution = row.solutions[0]
        assert solution.external_id == f"prm800k:{raw['labeler']}:{raw['timestamp']}"
        assert solution.label_agent == f"prm800k:{raw['labeler']}"
        assert solution.label_annotator == raw["labeler"]


def test_prm800k_human_completion_as_a_string_and_null_completions(write_jsonl):
    raw = copy.deepcopy(raw_rows("prm800k_sample.jsonl")[0])
    raw["label"]["steps"][1]["human_completion"] = "I write my own step."
    raw["label"]["steps"][2]["completions"] = None
    raw["label"]["steps"][2]["chosen_completion"] = None
    raw["label"]["steps"][2]["human_completion"] = {
        "text": "Mine",
        "rating": None,
        "corrected_rating": 1,
        "source": "human",
    }
    [row] = parse(write_jsonl([raw]))
    steps = row.solutions[0].steps
    assert steps[1].text == "I write my own step." and steps[1].alternatives[-1].is_human
    assert steps[2].text == "Mine" and steps[2].label == 1
    assert len(steps[2].alternatives) == 1


@pytest.mark.parametrize(
    ("mutate", "field", "message"),
    [
        (
            lambda r: r["label"]["steps"][2].update(chosen_completion=5),
            "label.steps[2].chosen_completion",
            "out of range",
        ),
        (
            lambda r: r["label"]["steps"][0]["completions"][0].update(rating=2),
            "label.steps[0].completions[0].rating",
            "expected -1, 0 or 1 or null, got 2",
        ),
        (
            lambda r: r["label"]["steps"][1].update(human_completion=7),
            "label.steps[1].human_completion",
            "expected an object, a string or null",
        ),
        (lambda r: r["label"].update(finish_reason="bored"), "label.finish_reason", "unknown"),
        (lambda r: r["question"].pop("problem"), "question.problem", "missing field"),
        (
            lambda r: r["label"]["steps"][0].update(chosen_completion=None),
            "label.steps[1]",
            "earlier step has no chosen or human completion",
        ),
    ],
)
def test_prm800k_errors_name_the_field(write_jsonl, mutate, field, message):
    raw = copy.deepcopy(raw_rows("prm800k_sample.jsonl")[0])
    mutate(raw)
    with pytest.raises(ImportFileError) as exc:
        parse(write_jsonl([{"x": 1} | raw, raw]), fmt="prm800k")
    assert (exc.value.line, exc.value.field) == (1, field)
    assert message in exc.value.message


# --- ProcessBench, PRMBench, Math-Shepherd, MR-MATH -----------------------------------------


def test_processbench_first_error_index(write_jsonl):
    base = {
        "id": "math-1",
        "generator": "m",
        "problem": "p",
        "final_answer_correct": True,
        "steps": ["a", "b", "c", "d", "e"],
    }
    rows = parse(write_jsonl([base | {"label": k} for k in (-1, 0, 3, 4)]), "processbench")
    labels = [[s.label for s in r.solutions[0].steps] for r in rows]
    assert labels == [
        [1, 1, 1, 1, 1],
        [-1, None, None, None, None],
        [1, 1, 1, -1, None],
        [1, 1, 1, 1, -1],
    ]
    assert [r.solutions[0].finish_reason for r in rows] == ["solution"] + ["found_error"] * 3
    assert rows[0].solutions[0].external_id == "processbench:math-1"
    assert rows[0].problem.source == "processbench:math"
    with pytest.raises(ImportFileError) as exc:
        parse(write_jsonl([base | {"label": 5}]), "processbench")
    assert exc.value.field == "label"


def test_processbench_real_rows_labels():
    for raw, row in zip(
        raw_rows("processbench_sample.jsonl"),
        parse(DATA / "processbench_sample.jsonl"),
        strict=True,
    ):
        labels = [s.label for s in row.solutions[0].steps]
        if raw["label"] == -1:
            assert labels == [1] * len(raw["steps"])
        else:
            assert labels.index(-1) == raw["label"] and labels.count(-1) == 1
            assert set(labels[raw["label"] + 1 :]) <= {None}
        assert row.solutions[0].answer_correct is raw["final_answer_correct"]


def test_prmbench_error_steps_are_one_based(write_jsonl):
    raw = copy.deepcopy(raw_rows("prmbench_sample.jsonl")[0])
    raw |= {"modified_process": ["s1", "s2", "s3"], "error_steps": [2], "modified_steps": [2, 3]}
    [row] = parse(write_jsonl([raw]))
    assert [s.label for s in row.solutions[0].steps] == [1, -1, 1]
    assert row.problem.text == raw["modified_question"]
    meta = row.solutions[0].metadata["prmbench"]
    assert meta["original_process"] == raw["original_process"]
    assert row.solutions[0].external_id == f"prmbench:{raw['classification']}:{raw['idx']}"
    with pytest.raises(ImportFileError) as exc:
        parse(write_jsonl([raw | {"error_steps": [0]}]))
    assert (exc.value.field, exc.value.message) == (
        "error_steps[0]",
        "step numbers are 1-based, got 0",
    )


def test_prmbench_real_rows_and_out_of_range_error_steps():
    raws = raw_rows("prmbench_sample.jsonl")
    for raw, row in zip(raws, parse(DATA / "prmbench_sample.jsonl"), strict=True):
        labels = [s.label for s in row.solutions[0].steps]
        assert len(labels) == len(raw["modified_process"])
        wrong = [i + 1 for i, v in enumerate(labels) if v == -1]
        assert wrong == sorted(n for n in raw["error_steps"] if n <= len(labels))
        beyond = [n for n in raw["error_steps"] if n > len(labels)]
        assert row.solutions[0].metadata["prmbench"].get("error_steps_out_of_range", []) == beyond
    assert any(n > len(r["modified_process"]) for r in raws for n in r["error_steps"])


def test_math_shepherd_tags_become_steps_and_labels():
    for raw, row in zip(
        raw_rows("math_shepherd_sample.jsonl"),
        parse(DATA / "math_shepherd_sample.jsonl"),
        strict=True,
    ):
        steps = row.solutions[0].steps
        assert len(steps) == raw["input"].count(" ки")
        assert [s.text.split(":")[0] for s in steps] == [f"Step {k + 1}" for k in range(len(steps))]
        signs = re.findall(r" ([+-])(?=\nStep \d+:|$)", raw["label"])
        assert [s.label for s in steps] == [1 if x == "+" else -1 for x in signs]
        assert raw["input"].startswith(row.problem.text + " Step 1:")
        assert "ки" not in "".join(s.text for s in steps)
        assert steps[-1].text.endswith(row.solutions[0].final_answer)


def test_math_shepherd_label_must_match_input(write_jsonl):
    raw = raw_rows("math_shepherd_sample.jsonl")[0]
    bad = raw | {"label": raw["label"].replace(" +\n", " ?\n", 1)}
    with pytest.raises(ImportFileError) as exc:
        parse(write_jsonl([raw, bad]))
    assert (exc.value.line, exc.value.field) == (2, "label")


def test_mrmath_steps_and_ratings():
    for raw, row in zip(
        raw_rows("prm800k_mrmath_redundant_sample.jsonl"),
        parse(DATA / "prm800k_mrmath_redundant_sample.jsonl"),
        strict=True,
    ):
        solution = row.solutions[0]
        assert [s.text for s in solution.steps] == [
            p[0].strip() for p in raw["model_output_step_format"]
        ]
        assert [s.label for s in solution.steps] == raw["rating"]
        assert solution.external_id == f"prm800k_mrmath:{raw['id']}"
        assert solution.generator == raw["generator"]


# --- GSM8K, MATH, TRL, steplab ---------------------------------------------------------------


def test_gsm8k_train_rows_are_problems_with_reference_and_answer():
    raw = raw_rows("gsm8k_sample.jsonl")[0]
    row = parse(DATA / "gsm8k_sample.jsonl")[0]
    assert row.solutions == []
    assert row.problem.answer == raw["answer"].split("####")[1].strip() == "62"
    assert row.problem.reference_solution == raw["answer"].split("\n####")[0]


def test_gsm8k_model_solutions_make_four_solutions():
    raw = raw_rows("gsm8k_model_solutions_sample.jsonl")[0]
    row = parse(DATA / "gsm8k_model_solutions_sample.jsonl")[0]
    keys = ["6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification"]
    assert [s.generator for s in row.solutions] == keys
    for key, solution in zip(keys, row.solutions, strict=True):
        lines = raw[key]["solution"].split("\n")
        assert [s.text for s in solution.steps] == lines[:-1]
        assert solution.final_answer == lines[-1].removeprefix("A: ")
        assert solution.answer_correct is raw[key]["is_correct"]
        assert all(s.label is None for s in solution.steps)
    assert row.problem.answer == "70000"


def test_math_rows_are_problems_with_id():
    raw = raw_rows("math500_sample.jsonl")[0]
    row = parse(DATA / "math500_sample.jsonl")[0]
    assert row.solutions == []
    assert row.problem.external_id == f"math:{raw['unique_id']}"
    assert (row.problem.reference_solution, row.problem.answer) == (raw["solution"], raw["answer"])
    assert row.problem.metadata["math"]["level"] == raw["level"]


def test_trl_stepwise(write_jsonl):
    rows = parse(
        write_jsonl([{"prompt": "1+1?", "completions": ["1+1", "=3"], "labels": [True, False]}])
    )
    assert [(s.text, s.label) for s in rows[0].solutions[0].steps] == [("1+1", 1), ("=3", -1)]
    with pytest.raises(ImportFileError) as exc:
        parse(write_jsonl([{"prompt": "p", "completions": ["a"], "labels": [1]}]), "trl")
    assert (exc.value.field, exc.value.message) == ("labels[0]", "expected a bool, got a number")


def test_steplab_steps_solution_split_and_labels(write_jsonl):
    path = write_jsonl(
        [
            {
                "problem": "p",
                "answer": "4",
                "steps": ["a", " b "],
                "labels": [1, -1],
                "id": "s-1",
                "problem_id": "p-1",
                "generator": "g",
                "final_answer": "4",
                "answer_correct": False,
                "source": "mine",
                "metadata": {"k": 1},
            },
            {"problem": "p", "solution": "Step 1: x. Step 2: y.", "labels": [1]},
        ]
    )
    first, second = parse(path, options=ParseOptions(step_split="step_marker"))
    assert [(s.text, s.label) for s in first.solutions[0].steps] == [("a", 1), ("b", -1)]
    assert (first.solutions[0].external_id, first.problem.external_id) == ("s-1", "p-1")
    assert first.solutions[0].label_agent == "mine" and first.solutions[0].metadata == {"k": 1}
    assert [(s.text, s.label) for s in second.solutions[0].steps] == [
        ("Step 1: x.", 1),
        ("Step 2: y.", None),
    ]
    assert second.solutions[0].external_id.startswith("sha256:")


def test_steplab_code_problem_keeps_tests_and_indentation(write_jsonl):
    tests = [{"input": "2\n", "output": "4\n"}]
    row = {"problem": "Double n.", "steps": ["def f(n):\n", "    return 2 * n  ", "\n  x"]}
    [parsed] = parse(write_jsonl([{**row, "tests": tests}]), "steplab")
    assert parsed.problem.metadata == {"tests": tests}
    texts = [s.text for s in parsed.solutions[0].steps]
    assert texts == ["def f(n):", "    return 2 * n", "  x"]
    [plain] = parse(write_jsonl([row]), "steplab")
    assert plain.problem.metadata == {}


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        ({"problem": "p", "steps": ["a", None, "c"]}, "steps[1]", "expected a string, got null"),
        ({"problem": "p"}, "steps", "missing field"),
        ({"problem": 3, "steps": []}, "problem", "expected a string, got a number"),
        ({"problem": "p", "steps": ["a"], "labels": [1, 1]}, "labels", "2 labels for 1 steps"),
        ({"problem": "p", "steps": ["a"], "labels": ["+"]}, "labels[0]", "got a string"),
        ({"problem": "p", "steps": ["a"], "id": "x" * 301}, "id", "the limit is 300"),
        ({"problem": "p", "steps": ["a"], "tests": 3}, "tests", "expected assert code"),
        ({"problem": "p", "steps": ["a"], "tests": [{"output": "1"}]}, "tests[0]", '"input"'),
        ({"problem": "p", "steps": ["a"], "tests": {"inputs": ["1"]}}, "tests", "equal length"),
    ],
)
def test_steplab_errors(write_jsonl, row, field, message):
    good = {"problem": "ok", "steps": ["ok"]}
    with pytest.raises(ImportFileError) as exc:
        parse(write_jsonl([good, good, row]), "steplab")
    assert (exc.value.file, exc.value.line, exc.value.field) == ("rows.jsonl", 3, field)
    assert message in exc.value.message
    assert exc.value.as_dict() == {
        "message": exc.value.message,
        "file": "rows.jsonl",
        "line": 3,
        "field": field,
    }
    assert str(exc.value) == f"rows.jsonl:3: {field}: {exc.value.message}"


def test_steplab_regex_rule_error_names_solution(write_jsonl):
    with pytest.raises(ImportFileError) as exc:
        parse(
            write_jsonl([{"problem": "p", "solution": "a"}]),
            options=ParseOptions(step_split="regex", step_split_regex="("),
        )
    assert exc.value.field == "solution"


# --- reading: JSON, limits, detection ---------------------------------------------------------


def test_bad_json_names_the_line(write_jsonl):
    good = {"problem": "p", "steps": ["a"]}
    with pytest.raises(ImportFileError) as exc:
        parse(write_jsonl([good, "", good, '{"problem": "p", "steps": [}']))
    assert (exc.value.line, exc.value.field) == (4, None)
    assert exc.value.message.startswith("invalid JSON")
    assert str(exc.value).startswith("rows.jsonl:4: invalid JSON")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("[1, 2]", "expected a JSON object, got a list"),
        ('"text"', "expected a JSON object, got a string"),
        ('{"unknown": 1}', "cannot tell the format"),
    ],
)
def test_rows_must_be_objects_of_a_known_shape(write_jsonl, line, message):
    with pytest.raises(ImportFileError, match=re.escape(message)):
        parse(write_jsonl([line]))


def test_empty_file_is_an_error(write_jsonl):
    with pytest.raises(ImportFileError, match="no rows"):
        parse(write_jsonl(["", "  "]))


def test_nesting_limit(write_jsonl):
    def nested(levels: int) -> str:  # the row object itself is level 1
        return (
            '{"problem": "p", "steps": ["a"], "extra": '
            + "[" * (levels - 1)
            + "]" * (levels - 1)
            + "}"
        )

    assert len(parse(write_jsonl([nested(64)]))) == 1
    with pytest.raises(ImportFileError, match="nested deeper than 64") as exc:
        parse(write_jsonl([nested(64), nested(65)]))
    assert exc.value.line == 2
    with pytest.raises(ImportFileError, match="nested deeper than 64"):
        parse(write_jsonl(["[" * 200_000 + "]" * 200_000]))


def test_line_length_limit(write_jsonl, monkeypatch):
    from labeling.importers import reader

    assert reader.MAX_LINE_BYTES == 10 * 1024 * 1024
    monkeypatch.setattr(reader, "MAX_LINE_BYTES", 100)
    ok = json.dumps({"problem": "p" * 60, "steps": ["a"]})
    assert len(ok) <= 100
    long = json.dumps({"problem": "p" * 120, "steps": ["a"]})
    with pytest.raises(ImportFileError, match="longer than 100 bytes") as exc:
        parse(write_jsonl([ok, long, ok]))
    assert exc.value.line == 2


def test_real_size_line_limit(tmp_path):
    path = tmp_path / "big.jsonl"
    path.write_bytes(b'{"problem": "' + b"x" * (10 * 1024 * 1024) + b'", "steps": []}\n')
    with pytest.raises(ImportFileError, match="longer than 10485760 bytes"):
        parse(path)


def test_invalid_utf8(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes('{"problem": "caf\u00e9", "steps": ["a"]}\n'.encode("latin-1"))
    with pytest.raises(ImportFileError, match="UTF-8|invalid JSON") as exc:
        parse(path)
    assert exc.value.line == 1


@pytest.mark.parametrize(
    ("row", "fmt"),
    [
        ({"question": {"problem": "p"}, "label": {"steps": []}}, "prm800k"),
        ({"input": "p Step 1: a ки", "label": "p Step 1: a +"}, "math_shepherd"),
        ({"problem": "p", "steps": ["a"], "label": 0}, "processbench"),
        ({"problem": "p", "steps": ["a"], "label": True}, "steplab"),
        ({"prompt": "p", "completions": ["a"], "labels": [True]}, "trl"),
        ({"problem": "p", "solution": "s", "answer": "1", "unique_id": "test/x/1.json"}, "math"),
        ({"problem": "p", "solution": "s", "answer": "1"}, "steplab"),
        ({"question": "q", "ground_truth": "g", "m": {}}, "gsm8k"),
        ({"text": "q"}, None),
    ],
)
def test_detect_format_from_keys(row, fmt):
    assert detect_format(row) == fmt


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_finite_numbers_are_refused_with_the_line(write_jsonl, number):
    good = '{"problem": "p", "steps": ["a"]}'
    bad = '{"problem": "p", "steps": ["a"], "metadata": {"x": ' + number + "}}"
    with pytest.raises(ImportFileError) as exc:
        parse(write_jsonl([good, bad]), "steplab")
    assert exc.value.line == 2 and "NaN and infinities" in exc.value.message
