import json

from autolabel.quality.data import DATA_DIR
from autolabel.quality.dev_split import DEVELOP, MEASURE, part_of


def test_a_problem_falls_in_one_part_whatever_its_whitespace():
    problem = "What is $2+2$?\n\nAnswer in  words."
    assert part_of(problem) == part_of("What is $2+2$? Answer in words.  ")


def test_the_dev_set_splits_by_problem_about_seventy_thirty():
    rows = [json.loads(line) for line in (DATA_DIR / "processbench_dev.jsonl").open()]
    parts = {part_of(row["problem"]) for row in rows}
    assert parts == {DEVELOP, MEASURE}
    problems = {row["problem"] for row in rows}
    measured = sum(part_of(p) == MEASURE for p in problems) / len(problems)
    assert 0.25 < measured < 0.35
