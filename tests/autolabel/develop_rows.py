"""What the symbolic checker's case tests share: the kinds of a step's failed claims, and the
check that every ProcessBench row a test cites is in the develop part of the dev set (issue 25:
the measure part is only measured, never developed on)."""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED


def failed_kinds(text: str) -> set[str] | None:
    """The kinds of the step's failed claims if the checker refutes it, else None."""
    verdict = check_step(text, timeout_s=5.0)
    if verdict.verdict != REFUTED:
        return None
    return {c.kind for c in verdict.failed}


def assert_develop(cited: set[str]) -> None:
    """Every cited ProcessBench id is a row of the develop part (skipped without the dev set)."""
    from autolabel.quality.data import DATA_DIR, read_labeled
    from autolabel.quality.dev_split import DEVELOP, part_of

    path = DATA_DIR / "processbench_dev.jsonl"
    if not path.exists():
        pytest.skip("shared/data/processbench_dev.jsonl is not here")
    parts = {
        str(s.metadata["processbench"]["id"]): part_of(s.problem)
        for s in read_labeled(path)
        if str(s.metadata["processbench"]["id"]) in cited
    }
    assert set(parts) == cited
    assert set(parts.values()) == {DEVELOP}
