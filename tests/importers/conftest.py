import json
from pathlib import Path
from typing import Any

import pytest

from labeling.models import (
    Annotation,
    Problem,
    Solution,
    Step,
    StepAlternative,
    StepLabel,
    Suggestion,
)

DATA = Path("/work/shared/data")
TABLES = (Problem, Solution, Step, StepAlternative, Suggestion, Annotation, StepLabel)


def raw_rows(name: str) -> list[dict[str, Any]]:
    """The rows of a shared data file, read with nothing but json."""
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def table_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in TABLES}


@pytest.fixture
def write_jsonl(tmp_path: Path):
    """write_jsonl(rows, name=...) -> path; str rows are written as they are (bad JSON)."""

    def write(rows: list[Any], name: str = "rows.jsonl") -> Path:
        path = tmp_path / name
        lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        return path

    return write
