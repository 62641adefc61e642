"""Evidence-cited rows: a problem's source documents and tables, a step's citations.

    "documents": [{"id": str, "title": str, "text": str}]
    "tables":    [{"id": str, "title": str, "columns": [str], "rows": [[str | number]]}]
    a step's "citations": [{"doc": id, "quote": str}
                           | {"doc": id, "start": int, "end": int}       (character offsets)
                           | {"table": id, "row": int | str, "column": int | str}]

They go to Problem.metadata["documents"] / ["tables"] and Step.metadata["citations"]. A
citation must name a document or table of its problem, a span must lie inside its document
(0 <= start < end <= len(text)), a cell must exist; a table row may be named by its first
cell and a column by its header, and is stored as 0-based indexes (`row` counts data rows,
not the header). Whether a quote is in its document, or a stated number matches its cell,
is the `citation` checker's question (autolabel/engines/citation.py), not an import error.
"""

from typing import Any

from .fields import Row, json_type

MAX_CITATIONS = 50


def _id(row: Row, value: Any, path: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int) or not str(value).strip():
        raise row.error(path, "expected a non-empty string id")
    return str(value)


def _list(row: Row, data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise row.error(key, f"expected a list, got {json_type(value)}")
    return value


def parse_documents(row: Row, data: dict[str, Any]) -> list[dict[str, Any]]:
    documents: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, item in enumerate(_list(row, data, "documents")):
        at = f"documents[{i}]"
        if not isinstance(item, dict):
            raise row.error(at, f"expected an object, got {json_type(item)}")
        doc_id = _id(row, item.get("id"), f"{at}.id")
        if doc_id in seen:
            raise row.error(f"{at}.id", f"duplicate document id {doc_id!r}")
        seen.add(doc_id)
        text = row.string(item, "text", at)
        if not text.strip():
            raise row.error(f"{at}.text", "is empty")
        title = row.string(item, "title", at, optional=True)
        documents.append({"id": doc_id, "title": title or doc_id, "text": text})
    return documents


def _cell(row: Row, value: Any, path: str) -> str | int | float | None:
    if value is None or (isinstance(value, str | int | float) and not isinstance(value, bool)):
        return value
    raise row.error(path, f"expected a string, a number or null, got {json_type(value)}")


def parse_tables(row: Row, data: dict[str, Any], taken: set[str]) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = []
    for i, item in enumerate(_list(row, data, "tables")):
        at = f"tables[{i}]"
        if not isinstance(item, dict):
            raise row.error(at, f"expected an object, got {json_type(item)}")
        table_id = _id(row, item.get("id"), f"{at}.id")
        if table_id in taken:
            raise row.error(
                f"{at}.id", f"duplicate id {table_id!r} (documents and tables share ids)"
            )
        taken.add(table_id)
        columns = row.strings(item, "columns", at)
        if not columns:
            raise row.error(f"{at}.columns", "a table needs at least one column")
        rows = []
        for r, cells in enumerate(row.array(item, "rows", at)):
            path = f"{at}.rows[{r}]"
            if not isinstance(cells, list):
                raise row.error(path, f"expected a list of cells, got {json_type(cells)}")
            if len(cells) != len(columns):
                raise row.error(path, f"{len(cells)} cells for {len(columns)} columns")
            rows.append([_cell(row, c, f"{path}[{k}]") for k, c in enumerate(cells)])
        title = row.string(item, "title", at, optional=True)
        tables.append(
            {"id": table_id, "title": title or table_id, "columns": columns, "rows": rows}
        )
    return tables


def _index(row: Row, value: Any, names: list[str], path: str, what: str) -> int:
    """A 0-based row or column index, given as one or as the row's first cell / the header."""
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value < len(names):
            raise row.error(path, f"{what} {value} is out of range (0..{len(names) - 1})")
        return value
    if isinstance(value, str):
        wanted = value.strip().casefold()
        hits = [k for k, name in enumerate(names) if str(name).strip().casefold() == wanted]
        if len(hits) == 1:
            return hits[0]
        problem = "matches no" if not hits else f"matches {len(hits)}"
        raise row.error(path, f"{value!r} {problem} {what}s; give the 0-based index")
    raise row.error(path, f"expected a 0-based index or a name, got {json_type(value)}")


def parse_citations(
    row: Row,
    items: Any,
    at: str,
    documents: dict[str, dict[str, Any]],
    tables: dict[str, dict[str, Any]],
) -> list[dict[str, Any]]:
    """A step's citations, checked against its problem's documents and tables."""
    if not isinstance(items, list):
        raise row.error(at, f"expected a list, got {json_type(items)}")
    if len(items) > MAX_CITATIONS:
        raise row.error(at, f"{len(items)} citations; at most {MAX_CITATIONS} a step")
    out = []
    for i, item in enumerate(items):
        path = f"{at}[{i}]"
        if not isinstance(item, dict):
            raise row.error(path, f"expected an object, got {json_type(item)}")
        if "table" in item:
            table_id = _id(row, item.get("table"), f"{path}.table")
            table = tables.get(table_id)
            if table is None:
                raise row.error(f"{path}.table", f"unknown table {table_id!r}{_known(tables)}")
            first_cells = [str(r[0]) if r and r[0] is not None else "" for r in table["rows"]]
            r = _index(row, row.get(item, "row", path), first_cells, f"{path}.row", "row")
            c = _index(
                row, row.get(item, "column", path), table["columns"], f"{path}.column", "column"
            )
            out.append({"table": table_id, "row": r, "column": c})
            continue
        doc_id = _id(row, item.get("doc"), f"{path}.doc")
        document = documents.get(doc_id)
        if document is None:
            raise row.error(f"{path}.doc", f"unknown document {doc_id!r}{_known(documents)}")
        if "quote" in item:
            quote = row.string(item, "quote", path)
            if not quote.strip():
                raise row.error(f"{path}.quote", "is empty")
            out.append({"doc": doc_id, "quote": quote})
            continue
        start, end = row.integer(item, "start", path), row.integer(item, "end", path)
        size = len(document["text"])
        if not 0 <= start < end <= size:
            raise row.error(
                f"{path}.end" if 0 <= start < size else f"{path}.start",
                f"span {start}..{end} is out of range: document {doc_id!r} has {size} "
                "characters (0 <= start < end <= length)",
            )
        out.append({"doc": doc_id, "start": start, "end": end})
    return out


def _known(named: dict[str, Any]) -> str:
    return f" (the problem has {', '.join(sorted(named))})" if named else " (the problem has none)"


class Sources:
    """A problem's documents and tables, parsed once, looked up by id for its citations."""

    def __init__(self, row: Row, data: dict[str, Any]) -> None:
        self.documents = parse_documents(row, data)
        self.tables = parse_tables(row, data, {d["id"] for d in self.documents})
        self._docs = {d["id"]: d for d in self.documents}
        self._tables = {t["id"]: t for t in self.tables}

    def __bool__(self) -> bool:
        return bool(self.documents or self.tables)

    def citations(self, row: Row, items: Any, at: str) -> list[dict[str, Any]]:
        return parse_citations(row, items, at, self._docs, self._tables)

    def metadata(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.documents:
            out["documents"] = self.documents
        if self.tables:
            out["tables"] = self.tables
        return out
