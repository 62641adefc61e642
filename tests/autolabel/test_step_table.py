"""The hand-reviewed table of real steps: no false refutation, ever; measured recall."""

from collections import Counter

import pytest

from autolabel.symbolic import check_step
from tests.autolabel.step_table import CASES

VERDICTS = ("verified", "refuted", "unknown")


@pytest.fixture(scope="module")
def results() -> list[tuple[str, str]]:
    return [(case.expected, check_step(case.text, timeout_s=5.0).verdict) for case in CASES]


def test_table_is_big_and_mixed():
    counts = Counter(case.expected for case in CASES)
    assert len(CASES) >= 60
    assert counts["refuted"] >= 20 and counts["verified"] >= 20 and counts["unknown"] >= 10
    sources = {case.source for case in CASES}
    assert {"processbench_sample.jsonl", "prm800k_sample.jsonl", "gsm8k_sample.jsonl"} <= sources


@pytest.mark.parametrize("case", CASES, ids=[f"{c.source}:{c.ref}" for c in CASES])
def test_never_refutes_a_correct_step(case):
    verdict = check_step(case.text, timeout_s=5.0)
    if case.expected != "refuted":
        assert verdict.verdict != "refuted", (case.why, [c.as_dict() for c in verdict.failed])
    if verdict.verdict == "refuted":
        assert verdict.failed and all(c.holds is False for c in verdict.failed)


def _metrics(results: list[tuple[str, str]], label: str) -> tuple[float, float]:
    tp = sum(e == label and g == label for e, g in results)
    predicted = sum(g == label for _, g in results)
    actual = sum(e == label for e, _ in results)
    return (tp / predicted if predicted else 1.0), (tp / actual if actual else 1.0)


def test_precision_recall_coverage(results):
    ref_p, ref_r = _metrics(results, "refuted")
    ver_p, ver_r = _metrics(results, "verified")
    coverage = sum(g != "unknown" for _, g in results) / len(results)
    confusion = Counter(results)
    report = (
        f"table of {len(results)} steps: refuted precision {ref_p:.3f} recall {ref_r:.3f}; "
        f"verified precision {ver_p:.3f} recall {ver_r:.3f}; coverage {coverage:.3f}; "
        f"confusion (expected, got): {dict(sorted(confusion.items()))}"
    )
    print(report)
    false_refutations = sum(g == "refuted" and e != "refuted" for e, g in results)
    assert false_refutations == 0, report
    assert ref_p == 1.0, report
    assert ver_p >= 0.95, report  # a wrong step called verified is bad, not as bad
    assert ref_r >= 0.8, report  # the misses are algebra we refuse to judge, by design
    assert ver_r >= 0.85, report
