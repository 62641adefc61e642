"""The label-quality harness per problem domain: a steplab file whose rows name their domain
is tallied per domain beside the totals, and dataset formats get their format's domain."""

import json

import pytest

from autolabel.quality.data import domain_of, read_labeled
from autolabel.quality.harness import evaluate
from autolabel.quality.markdown import domain_markdown

ROWS = [  # symbolic refutes "5 * 4 = 21" and "3 + 3 = 7"; truth from the labels
    {"id": "m1", "domain": "math", "problem": "p1", "steps": ["2 + 3 = 5.", "5 * 4 = 21."],
     "labels": [1, -1]},
    {"id": "m2", "domain": "math", "problem": "p2", "steps": ["2 + 2 = 4.", "4 * 2 = 8."],
     "labels": [1, 1]},
    {"id": "t1", "domain": "text", "problem": "p3", "steps": ["Two apples and three more.",
     "So 3 + 3 = 7 apples."], "labels": [1, -1]},
]  # fmt: skip


@pytest.mark.django_db
def test_the_report_has_each_domains_numbers(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    assert [s.domain for s in read_labeled(path)] == ["math", "math", "text"]
    report = evaluate([path], ["symbolic"])
    result = report["results"]["symbolic"]
    by_domain = result["by_domain"]
    assert list(by_domain) == ["math", "text"]
    assert (by_domain["math"]["solutions"], by_domain["text"]["solutions"]) == (2, 1)
    assert result["all"]["solutions"] == 3
    # Each domain's −1 verdict is right: precision 1 in both, recall 1 (one wrong step each).
    for domain in ("math", "text"):
        assert by_domain[domain]["neg"]["precision"] == 1.0
        assert by_domain[domain]["neg"]["recall"] == 1.0
    table = domain_markdown(report)
    assert "| symbolic | math | 2 |" in table and "| symbolic | text | 1 |" in table


def test_formats_without_a_domain_get_their_formats():
    assert domain_of("processbench", "") == "math"
    assert domain_of("messages", "") == "agent"
    assert domain_of("steplab", "") == "(none)"
    assert domain_of("steplab", "", "code") == "code"
    assert domain_of("steplab", "text", "code") == "text"
    assert domain_markdown({"results": {"symbolic": {"by_domain": {"math": {}}}}}) == ""
