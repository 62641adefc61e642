"""Evidence-cited rows: documents, tables and citations in steplab rows, and FinQA rows."""

import json
from pathlib import Path

import pytest

from labeling.importers import ImportFileError, open_rows
from labeling.models import Problem, Solution, Step
from labeling.services.imports import import_file
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

DEMO = Path(__file__).resolve().parents[2] / "labeling" / "demo"
DOCS = [{"id": "note", "title": "Discharge note", "text": "Creatinine rose to 2.1 mg/dL on day 3."}]
TABLES = [
    {
        "id": "labs",
        "title": "Labs",
        "columns": ["Test", "Day 1", "Day 3"],
        "rows": [["Creatinine", "1.0", "2.1"], ["Potassium", 4.1, None]],
    }
]


def _row(**changes) -> dict:
    row = {
        "id": "r1",
        "problem": "Did kidney function worsen?",
        "documents": DOCS,
        "tables": TABLES,
        "steps": [
            {
                "text": "Creatinine doubled, from 1.0 to 2.1.",
                "citations": [
                    {"table": "labs", "row": "Creatinine", "column": "Day 1"},
                    {"table": "labs", "row": 0, "column": 2},
                ],
            },
            {"text": "The note says so.", "citations": [{"doc": "note", "quote": "rose to 2.1"}]},
            {"text": "Yes.", "citations": [{"doc": "note", "start": 0, "end": 10}]},
        ],
        "labels": [1, 1, 0],
    }
    row.update(changes)
    return row


def _write(tmp_path, rows) -> Path:
    path = tmp_path / "evidence.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_documents_tables_and_citations_are_stored(tmp_path):
    project = ProjectFactory(domain="evidence")
    import_file(project=project, path=_write(tmp_path, [_row()]), labels_as="annotations")
    problem = Problem.objects.get()
    assert problem.metadata["documents"] == DOCS
    assert problem.metadata["tables"] == TABLES
    steps = list(Step.objects.order_by("index"))
    # Names become 0-based indexes; the header row is not a row.
    assert steps[0].metadata["citations"] == [
        {"table": "labs", "row": 0, "column": 1},
        {"table": "labs", "row": 0, "column": 2},
    ]
    assert steps[1].metadata["citations"] == [{"doc": "note", "quote": "rose to 2.1"}]
    assert steps[2].metadata["citations"] == [{"doc": "note", "start": 0, "end": 10}]


def _bad_step(citations) -> dict:
    steps = _row()["steps"]
    steps[1] = {"text": "x", "citations": citations}
    return _row(steps=steps)


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        (
            _bad_step([{"doc": "memo", "quote": "x"}]),
            "steps[1].citations[0].doc",
            "unknown document 'memo' (the problem has note)",
        ),
        (
            _bad_step([{"doc": "note", "start": 5, "end": 99}]),
            "steps[1].citations[0].end",
            "span 5..99 is out of range: document 'note' has 38 characters",
        ),
        (
            _bad_step([{"doc": "note", "start": -1, "end": 3}]),
            "steps[1].citations[0].start",
            "out of range",
        ),
        (
            _bad_step([{"doc": "note", "start": 4, "end": 4}]),
            "steps[1].citations[0].end",
            "out of range",
        ),
        (
            _bad_step([{"table": "vitals", "row": 0, "column": 0}]),
            "steps[1].citations[0].table",
            "unknown table 'vitals'",
        ),
        (
            _bad_step([{"table": "labs", "row": "Sodium", "column": 1}]),
            "steps[1].citations[0].row",
            "'Sodium' matches no rows",
        ),
        (
            _bad_step([{"table": "labs", "row": 0, "column": 3}]),
            "steps[1].citations[0].column",
            "column 3 is out of range (0..2)",
        ),
        (_bad_step([{"doc": "note", "quote": ""}]), "steps[1].citations[0].quote", "is empty"),
        (_bad_step({"doc": "note"}), "steps[1].citations", "expected a list"),
        (_row(documents=[DOCS[0], DOCS[0]]), "documents[1].id", "duplicate document id 'note'"),
        (
            _row(tables=[{**TABLES[0], "rows": [["a"]]}]),
            "tables[0].rows[0]",
            "1 cells for 3 columns",
        ),
        (
            _row(documents=None, tables=None),
            "steps[0].citations",
            "the row has no `documents` or `tables` to cite",
        ),
    ],
)
def test_a_bad_citation_names_its_line_and_field_and_imports_nothing(tmp_path, row, field, message):
    project = ProjectFactory(domain="evidence")
    path = _write(tmp_path, [_row(id="fine"), row])
    with pytest.raises(ImportFileError) as exc:
        import_file(project=project, path=path, labels_as="annotations")
    assert (exc.value.file, exc.value.line, exc.value.field) == ("evidence.jsonl", 2, field)
    assert message in exc.value.message
    assert Solution.objects.count() == 0 and Problem.objects.count() == 0


def test_a_quote_missing_from_its_document_is_the_checkers_business_not_an_error(tmp_path):
    project = ProjectFactory(domain="evidence")
    path = _write(tmp_path, [_bad_step([{"doc": "note", "quote": "fell to 0.9"}])])
    import_file(project=project, path=path, labels_as="none")
    assert Step.objects.get(index=1).metadata["citations"] == [
        {"doc": "note", "quote": "fell to 0.9"}
    ]


def test_finqa_rows_become_cited_program_steps():
    with open_rows(DEMO / "finqa_demo.jsonl", filename="finqa_demo.jsonl") as rows:
        parsed = list(rows)
        assert rows.format == "finqa"
    visa, pkg, stt = parsed
    assert visa.problem.external_id == "V/2008/page_17.pdf-1"
    assert visa.problem.answer == "127.40"
    (step,) = visa.solutions[0].steps
    assert (step.text, step.label) == ("637 ÷ 5 = 127.4", 1)
    # Marked row 3 of FinQA's table (data row 2): 637 and 5.0, the program's two numbers.
    assert step.metadata["citations"] == [
        {"table": "table", "row": 2, "column": 1},
        {"table": "table", "row": 2, "column": 3},
    ]
    table = visa.problem.metadata["tables"][0]
    assert table["columns"][0] == "company" and table["rows"][2][:2] == ["american express", "637"]
    # The lone "." sentences are left out of the documents.
    assert "\n.\n" not in visa.problem.metadata["documents"][0]["text"]
    assert pkg.solutions[0].steps[0].text == "25048 ÷ 44572 = 0.56197"
    # A text fact is cited by its sentence's span in the document after the table.
    (cite,) = stt.solutions[0].steps[0].metadata["citations"]
    post = next(d for d in stt.problem.metadata["documents"] if d["id"] == cite["doc"])
    assert post["text"][cite["start"] : cite["end"]].startswith(
        "these unrealized losses related to reclassifications totaled $ 303 million"
    )


def test_a_finqa_program_that_cannot_run_names_the_line(tmp_path):
    row = json.loads((DEMO / "finqa_demo.jsonl").read_text().splitlines()[0])
    row["qa"]["program"] = "divide(637, #3)"
    path = tmp_path / "finqa.jsonl"
    path.write_text(json.dumps(row) + "\n")
    with pytest.raises(ImportFileError) as exc, open_rows(path, filename="finqa.jsonl") as rows:
        list(rows)
    assert (exc.value.line, exc.value.field) == (1, "qa.program")
    assert "#3 refers to no earlier step" in exc.value.message
