"""The `citation` checker: quotes in their documents, stated numbers against cited cells."""

import pytest

from autolabel.citations.numbers import cell_numbers, matches, parse_numbers
from autolabel.citations.quotes import find_quote
from autolabel.engines.base import CHECKS_OUT, SolutionInput
from autolabel.engines.citation import AGENT, CitationEngine
from autolabel.registry import ENGINES
from labeling.models import DOMAIN_SOURCES, Domain

REPORT = (
    "Net revenue for fiscal 2023 was $4,812 million, an increase of $377 million, or 8.5%.\n"
    "Operating income was $903 million, compared with $951 million in the prior year."
)
PROBLEM = {
    "documents": [{"id": "mdna", "title": "MD&A", "text": REPORT}],
    "tables": [
        {
            "id": "seg",
            "title": "Segments (in millions)",
            "columns": ["Segment", "2023", "2022"],
            "rows": [
                ["Americas", "$2,905", "$2,611"],
                ["Europe", "1,318", "1,244"],
                ["Loss", "$ -181 ( 181 )", "9 (4.3%)"],
                ["Note", "n/a", "0.56197"],
            ],
        }
    ],
}


def _run(steps: list[tuple[str, list[dict]]], problem=PROBLEM):
    solution = SolutionInput(
        problem="Which segment grew most?",
        gold_answer="",
        steps=tuple(text for text, _ in steps),
        step_metadata=tuple({"citations": c} if c else {} for _, c in steps),
        problem_metadata=problem,
    )
    result = CitationEngine()(solution, {})
    return result, {s.step_index: s for s in result.suggestions}


def cell(row: int, column: int) -> dict:
    return {"table": "seg", "row": row, "column": column}


def test_it_is_registered_and_offered_for_evidence_problems_only():
    assert ENGINES["citation"].name == "citation"
    assert "citation" in DOMAIN_SOURCES[Domain.EVIDENCE]
    # A many-domains project offers it too (a run applies it to its evidence problems only).
    others = [d for d in DOMAIN_SOURCES if d not in (Domain.EVIDENCE, Domain.MIXED)]
    assert all("citation" not in DOMAIN_SOURCES[d] for d in others)
    assert "citation" in DOMAIN_SOURCES[Domain.MIXED]


def test_a_step_whose_citations_all_hold_checks_out_as_evidence_only():
    result, by_step = _run(
        [
            ("Americas grew from $2,611 million to $2,905 million.", [cell(0, 2), cell(0, 1)]),
            (
                "Revenue rose by $377 million.",
                [{"doc": "mdna", "quote": "an  INCREASE of $377 million"}],
            ),
        ]
    )
    assert result.agent == AGENT
    for s in by_step.values():
        # The symbolic engine's shape exactly: no rating, no score, kind "checks out".
        assert (s.value, s.score, s.evidence["kind"]) == (None, None, CHECKS_OUT)
    assert by_step[0].evidence["checked"] == 2
    assert by_step[1].evidence["checks"][0]["match"] == "normalized"
    assert [c["text"] for c in by_step[0].evidence["claims"]] == [
        "$2,611 million is Americas · 2022 ($2,611)",
        "$2,905 million is Americas · 2023 ($2,905)",
    ]


def test_a_number_copied_wrong_from_a_cited_cell_is_minus_one_with_the_cell():
    _, by_step = _run(
        [("Americas grew from $2,611 million to $2,950 million.", [cell(0, 2), cell(0, 1)])]
    )
    s = by_step[0]
    assert s.value == -1
    (failed,) = s.evidence["failed"]
    assert failed["check"] == "number_mismatch"
    assert (failed["stated"], failed["cell"], failed["row"], failed["column"]) == (
        "$2,950 million",
        "$2,905",
        0,
        1,
    )
    assert (
        "states $2,950 million where the cited cell Americas · 2023 is $2,905"
        in s.evidence["message"]
    )


def test_years_and_numbers_from_the_problem_are_not_taken_for_copied_cells():
    # 2023 is the size of the unstated 2022 cell ($2,611), but it is the fiscal year.
    _, by_step = _run(
        [("In fiscal 2023 Americas revenue was $2,905 million.", [cell(0, 1), cell(0, 2)])]
    )
    assert by_step == {}  # the 2022 cell is cited but not stated: unchecked, not wrong


def test_a_quote_not_in_its_document_is_minus_one_with_the_closest_sentence():
    _, by_step = _run([("It says so.", [{"doc": "mdna", "quote": "an increase of $337 million"}])])
    s = by_step[0]
    assert s.value == -1
    (failed,) = s.evidence["failed"]
    assert failed["check"] == "quote_not_found"
    assert failed["closest"].startswith("Net revenue for fiscal 2023 was $4,812 million")


def test_numbers_copied_wrong_from_a_cited_passage_are_minus_one():
    _, by_step = _run(
        [
            (
                "Operating income fell from $951 million to $930 million.",
                [{"doc": "mdna", "quote": "Operating income was $903 million"}],
            )
        ]
    )
    assert by_step[0].value == -1
    assert by_step[0].evidence["failed"][0]["passage_number"] == "$903 million"


@pytest.mark.parametrize(
    ("citation", "check"),
    [
        ({"doc": "memo", "quote": "x"}, "unknown_source"),
        ({"table": "other", "row": 0, "column": 1}, "unknown_source"),
        ({"doc": "mdna", "start": 10, "end": 10_000}, "span_out_of_range"),
        ({"table": "seg", "row": 9, "column": 1}, "unknown_cell"),
    ],
)
def test_citations_the_sources_cannot_answer_are_minus_one(citation, check):
    _, by_step = _run([("Something.", [citation])])
    assert by_step[0].value == -1
    assert by_step[0].evidence["failed"][0]["check"] == check


def test_steps_it_cannot_decide_get_nothing_and_lose_older_verdicts():
    result, by_step = _run(
        [
            ("No citation here.", []),
            # The cell is used, not stated: the checker cannot follow it, so it says nothing.
            ("Europe grew about six percent.", [cell(1, 1), cell(1, 2)]),
            ("The note is not a number.", [cell(3, 1)]),
        ]
    )
    assert by_step == {}
    assert result.withdrawn == [0, 1, 2]


@pytest.mark.parametrize(
    ("stated", "cell_text", "same"),
    [
        ("2,457", "$ 2457", True),
        ("2,475", "$ 2457", False),
        ("56%", "0.56197", True),
        ("0.56", "0.56197", True),
        ("0.57", "0.56197", False),
        ("4.3%", "9 (4.3%)", True),
        ("4.3%", "3 (1.5%)", False),
        ("$44.6 million", "$ 44572", True),  # a cell in thousands, stated in millions
        ("a loss of 181", "$ -181 ( 181 )", True),
        ("-181", "$(181)", True),
        ("127.4", "127.40", True),
        ("5", "5.0", True),
        ("1.5", "-1.4", False),
    ],
)
def test_stated_numbers_match_cells_with_units_separators_and_rounding(stated, cell_text, same):
    (number,) = [n for n in parse_numbers(stated)]
    assert any(matches(number, c) for c in cell_numbers(cell_text)) is same


def test_numbers_after_an_equals_sign_are_results_not_copied_values():
    numbers = parse_numbers("25048 / 44572 = 0.56 of the total")
    assert [n.result for n in numbers] == [False, False, True]


@pytest.mark.parametrize(
    ("quote", "found"),
    [
        ("an increase of $377 million", "exact"),
        ("AN INCREASE   of $377\nmillion", "normalized"),
        ("Net revenue ... an increase of $377 million", "normalized"),
        ("an increase of $377 billion", None),
    ],
)
def test_quotes_are_found_exactly_or_after_normalising(quote, found):
    at = find_quote(REPORT, quote)
    assert (at[2] if at else None) == found
    if at:
        assert REPORT[at[0] : at[1]].casefold().endswith("million")


@pytest.mark.django_db
def test_the_label_quality_harness_measures_it_on_the_labeled_demo_rows():
    """What docs/benchmarks.md reports: on the 15 labeled steps of the evidence demo (12
    labeled by their author, 3 FinQA gold steps) every −1 is right, and steps that check out
    are correct more often than steps overall. The harness must pass each step's citations
    and the problem's sources to the engine, as the workers do."""
    from pathlib import Path

    from autolabel.quality.harness import evaluate

    demo = Path(__file__).resolve().parents[2] / "labeling" / "demo"
    report = evaluate([demo / "evidence_demo.jsonl", demo / "finqa_demo.jsonl"], ["citation"])
    summary = report["results"]["citation"]["all"]
    assert summary["verdicts"]["-1"] == {"n": 3, "right": 1.0}
    checks_out = summary["verdicts"]["checks out"]
    assert checks_out["n"] == 12
    assert checks_out["right"] > summary["base_rate"]
