"""Evidence-cited steps: is what a step cites in its sources, and do its numbers match?

Steps carry `citations` in their metadata (labeling/importers/evidence.py) and the problem
its `documents` and `tables`. Per cited item:

* a quote must be in its document, exactly or after normalising case, whitespace, quote
  marks and dashes (autolabel/citations/quotes.py); not found: −1 (`quote_not_found`, with
  the document's closest sentence);
* a span must lie inside its document (`span_out_of_range` otherwise: the document changed);
* a table cell must exist (`unknown_cell`); when it holds a number and the step states that
  number (currency, thousands separators, %, scale words, the step's rounding:
  autolabel/citations/numbers.py) it is checked; when the step states instead a number of
  the same size that no cited cell holds (not a computed one, after "="), that is a
  mismatch: −1 (`number_mismatch`, with the cell and the stated number). A cited cell whose
  value the step does not state at all is left unchecked (the step may use it in a way the
  checker cannot follow);
* a citation of a document or table the problem does not have: −1 (`unknown_source`).

A step whose every citation was checked and held gets evidence only, like a symbolic step
that checks out: value None, evidence kind "checks out" with the checks (a found quote does
not make a step's reasoning right). Steps without citations, or with some left unchecked
and none failing, get nothing (and lose what an earlier run gave them).
"""

from __future__ import annotations

from typing import Any

from annotate.queues import Queue
from autolabel.calibration import calibrate
from autolabel.citations.numbers import Number, cell_numbers, matches, near, parse_numbers
from autolabel.citations.quotes import closest_passage, find_quote
from autolabel.engines.base import CHECKS_OUT, EngineResult, SolutionInput, StepSuggestion
from autolabel.engines.params import check_keys

SOURCE = "citation"
AGENT = "citation-checker/v1"
MAX_EXCERPT = 300


def _clip(text: str) -> str:
    return text if len(text) <= MAX_EXCERPT else text[: MAX_EXCERPT - 1] + "…"


def _year(n: Number) -> bool:
    """1900–2100 written bare ("fiscal 2023"): a date, not a copied amount."""
    bare = n.text.isdigit()
    return bare and not n.percent and not n.scale and 1900 <= n.value <= 2100


def _by_id(items: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(items, list):
        return {}
    return {str(i["id"]): i for i in items if isinstance(i, dict) and "id" in i}


class _Step:
    """One step's checks: what held, what failed, what could not be decided."""

    def __init__(self, text: str, documents: dict, tables: dict) -> None:
        self.text, self.documents, self.tables = text, documents, tables
        self.numbers = parse_numbers(text)
        self.checked: list[dict[str, Any]] = []
        self.failed: list[dict[str, Any]] = []
        self.unchecked: list[dict[str, Any]] = []
        self.passages: list[tuple[str, str]] = []  # (title, cited text) of found passages

    def passage(self, citation: dict[str, Any]) -> None:
        doc_id = str(citation.get("doc"))
        document = self.documents.get(doc_id)
        if document is None:
            self.failed.append(
                {
                    "check": "unknown_source",
                    "doc": doc_id,
                    "message": f"the step cites a document {doc_id!r} the problem does not have",
                }
            )
            return
        text = str(document.get("text") or "")
        title = document.get("title") or doc_id
        if "quote" in citation:
            quote = str(citation["quote"])
            found = find_quote(text, quote)
            if found is None:
                self.failed.append(
                    {
                        "check": "quote_not_found",
                        "doc": doc_id,
                        "quote": _clip(quote),
                        "closest": closest_passage(text, quote),
                        "message": f"the quote is not in “{title}”",
                    }
                )
                return
            start, end, how = found
            self.passages.append((title, text[start:end]))
            self.checked.append(
                {
                    "check": "quote",
                    "doc": doc_id,
                    "start": start,
                    "end": end,
                    "match": how,
                    "text": f"quote found in “{title}”"
                    + ("" if how == "exact" else " (normalised)"),
                }
            )
            return
        start, end = citation.get("start"), citation.get("end")
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
            self.failed.append(
                {
                    "check": "span_out_of_range",
                    "doc": doc_id,
                    "message": f"the cited span {start}..{end} is not inside “{title}” "
                    f"({len(text)} characters)",
                }
            )
            return
        self.passages.append((title, text[start:end]))
        self.checked.append(
            {
                "check": "span",
                "doc": doc_id,
                "start": start,
                "end": end,
                "text": f"passage {start}..{end} of “{title}”",
            }
        )

    def cell(self, citation: dict[str, Any]) -> tuple[dict[str, Any], list[Number]] | None:
        table_id = str(citation.get("table"))
        table = self.tables.get(table_id)
        if table is None:
            self.failed.append(
                {
                    "check": "unknown_source",
                    "table": table_id,
                    "message": f"the step cites a table {table_id!r} the problem does not have",
                }
            )
            return None
        rows, columns = table.get("rows") or [], table.get("columns") or []
        r, c = citation.get("row"), citation.get("column")
        if not (isinstance(r, int) and isinstance(c, int) and 0 <= r < len(rows)):
            r = None
        if r is None or not 0 <= c < len(rows[r]) or c >= len(columns):  # type: ignore[operator]
            self.failed.append(
                {
                    "check": "unknown_cell",
                    "table": table_id,
                    "message": f"the cited cell (row {citation.get('row')}, column "
                    f"{citation.get('column')}) is not in table {table_id!r}",
                }
            )
            return None
        value = rows[r][c]
        label = f"{rows[r][0]} · {columns[c]}" if c else str(rows[r][0])
        where = {"table": table_id, "row": r, "column": c, "cell": str(value), "label": label}
        numbers = cell_numbers(value)
        if not numbers:
            self.unchecked.append({**where, "reason": "the cell holds no number"})
            return None
        return where, numbers

    def cells(self, cells: list[tuple[dict[str, Any], list[Number]]], problem: str) -> None:
        used: set[int] = set()
        pending = []
        for where, numbers in cells:
            hit = next(
                (i for i, n in enumerate(self.numbers) if any(matches(n, c) for c in numbers)),
                None,
            )
            if hit is None:
                pending.append((where, numbers))
                continue
            used.add(hit)
            stated = self.numbers[hit].text
            self.checked.append(
                {
                    **{"check": "cell"},
                    **where,
                    "stated": stated,
                    "text": f"{stated} is {where['label']} ({where['cell']})",
                }
            )
        # Numbers that state no cited cell, were not computed in the step, are not years and
        # are not given in the problem: the ones that may have been copied wrong.
        given = parse_numbers(problem)
        free = [
            n
            for i, n in enumerate(self.numbers)
            if i not in used
            and not n.result
            and not _year(n)
            and not any(matches(n, g) for g in given)
        ]
        for where, numbers in pending:
            wrong = next((n for n in free if any(near(n, c) for c in numbers)), None)
            if wrong is None:
                self.unchecked.append({**where, "reason": "the step does not state this value"})
                continue
            self.failed.append(
                {
                    "check": "number_mismatch",
                    **where,
                    "stated": wrong.text,
                    "message": f"the step states {wrong.text} where the cited cell "
                    f"{where['label']} is {where['cell']}",
                }
            )

    def passage_numbers(self, problem: str) -> None:
        """A number the step states that no cited passage (nor cell, nor the problem) has,
        but of the size of one a cited passage has, is a number copied wrong."""
        if not self.passages:
            return
        claimed = {
            id(n)
            for c in self.checked
            if "stated" in c
            for n in self.numbers
            if n.text == c["stated"]
        }
        given = parse_numbers(problem)
        sources = [(title, n) for title, text in self.passages for n in parse_numbers(text)]
        for n in self.numbers:
            if n.result or _year(n) or id(n) in claimed or any(matches(n, g) for g in given):
                continue
            if any(matches(n, m) for _, m in sources):
                continue
            close = next(((t, m) for t, m in sources if near(n, m)), None)
            if close is not None:
                title, m = close
                self.failed.append(
                    {
                        "check": "number_mismatch",
                        "stated": n.text,
                        "passage_number": m.text,
                        "message": f"the step states {n.text}; the cited passage of “{title}” "
                        f"says {m.text}",
                    }
                )

    def suggestion(self, index: int) -> StepSuggestion | None:
        evidence: dict[str, Any] = {
            "checker": SOURCE,
            "checks": self.checked,
            "failed": self.failed,
            "unchecked": self.unchecked,
            "checked": len(self.checked),
        }
        if self.failed:
            evidence["message"] = "; ".join(f["message"] for f in self.failed)
            return StepSuggestion(step_index=index, value=-1, evidence=evidence)
        if self.checked and not self.unchecked:
            evidence["kind"] = CHECKS_OUT
            evidence["claims"] = [{"text": c["text"], "holds": True} for c in self.checked]
            return StepSuggestion(step_index=index, value=None, evidence=evidence)
        return None


class CitationEngine:
    name = SOURCE
    queue = Queue.DEFAULT

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        check_keys(params, set(), engine=self.name)
        result = EngineResult(source=SOURCE, agent=AGENT)
        documents = _by_id(solution.problem_metadata.get("documents"))
        tables = _by_id(solution.problem_metadata.get("tables"))
        metas = list(solution.step_metadata) + [{}] * (
            len(solution.steps) - len(solution.step_metadata)
        )
        for index, (text, meta) in enumerate(zip(solution.steps, metas, strict=False)):
            citations = meta.get("citations") if isinstance(meta, dict) else None
            suggestion = None
            if isinstance(citations, list) and citations:
                step = _Step(text, documents, tables)
                cells = []
                for citation in citations:
                    if not isinstance(citation, dict):
                        continue
                    if "table" in citation:
                        if (cell := step.cell(citation)) is not None:
                            cells.append(cell)
                    else:
                        step.passage(citation)
                step.cells(cells, solution.problem)
                step.passage_numbers(solution.problem)
                suggestion = step.suggestion(index)
            if suggestion is None:
                result.withdrawn.append(index)
            else:
                result.suggestions.append(suggestion)
        return calibrate(result)
