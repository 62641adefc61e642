"""The metamorphic stress's other correct steps (autolabel/quality/shared_correct.py)."""

import json

import pytest

from autolabel.quality import shared_correct
from autolabel.quality.data import DATA_DIR


def _skip_without(name: str) -> None:
    if not (DATA_DIR / name).exists():
        pytest.skip(f"shared/data/{name} is not here")


def test_math_shepherd_steps_stop_at_the_first_minus():
    _skip_without("math_shepherd_sample.jsonl")
    steps = [s for s in shared_correct.shepherd_steps() if s.ref == "0"]
    # row 0 (Janet's lessons): steps 1-4 tagged "+", step 5 "-"
    assert [s.index for s in steps] == [0, 1, 2, 3]
    assert steps[0].text.startswith("Janet spends 3 hours + 5 hours")
    assert steps[3].previous == tuple(s.text for s in steps[:3])
    assert all("\u043a\u0438" not in s.text and not s.text.endswith("+") for s in steps)


def test_gsm8k_model_steps_come_from_right_answers_only():
    _skip_without("gsm8k_model_solutions_sample.jsonl")
    with open(DATA_DIR / "gsm8k_model_solutions_sample.jsonl", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    steps = shared_correct.gsm8k_model_steps()
    refs = {s.ref for s in steps}
    for n, row in enumerate(rows):
        for model in shared_correct._MODELS:
            assert (f"{n}-{model}" in refs) == bool(row[model]["is_correct"])
    assert not any(s.text.startswith("A:") for s in steps)
