"""FinQA (czyssrs/FinQA): financial reports' text and table, a question and its gold program.

    {"id": "V/2008/page_17.pdf-1", "filename": str,
     "pre_text": [sentence], "post_text": [sentence], "table": [[header...], [cell...], ...],
     "qa": {"question": str, "answer": str, "exe_ans": number,
            "program": "divide(637, const_5)", "gold_inds": {"table_3": str, "text_1": str}}}

FinQA ships each split as one JSON array; make it JSON Lines first
(`jq -c '.[]' train.json > train.jsonl`). One line becomes an evidence-cited row:

* the problem is `qa.question` with `qa.answer`; its documents are the text before and after
  the table (`pre_text`, `post_text`: one sentence a line, the lone "." sentences the PDF
  extraction left where the table was dropped) and its table is `table` (first row the header);
* each operation of `qa.program` is a step, `637 ÷ 5 = 127.4`, its value computed from the
  program (`#k` is step k's result, `const_5` is 5, `const_m1` is -1);
* a step cites what its numbers come from, among the supporting facts FinQA's annotators
  marked (`gold_inds`): a cell of a marked table row whose value is one of the step's
  numbers, and the span of a marked sentence that states one of them;
* every step is labeled +1 (agent `finqa`): the program is FinQA's gold answer, executed.
"""

import math
import operator
import re
from typing import Any

from .evidence import Sources
from .fields import Row
from .ids import content_id, problem_id
from .types import ParsedProblem, ParsedRow, ParsedSolution, ParsedStep

_CALL = re.compile(r"\s*(\w+)\(([^()]*)\)\s*(?:,|$)")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?|-?\.\d+")
_SYMBOLS = {"add": "+", "subtract": "−", "multiply": "×", "divide": "÷", "exp": "^"}
_OPS = {
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "divide": operator.truediv,
    "exp": operator.pow,
}
_TABLE_OPS = {
    "table_sum": "sum",
    "table_average": "average",
    "table_max": "max",
    "table_min": "min",
}


def _fmt(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.5g}" if abs(value) < 1e5 else f"{value:.2f}"


def _number(text: str) -> float | None:
    match = _NUMBER.search(text.replace("$", ""))
    if not match:
        return None
    try:
        return float(match.group(0).replace(",", ""))
    except ValueError:
        return None


def _const(arg: str) -> float | None:
    if arg.startswith("const_"):
        tail = arg[6:]
        return -float(tail[1:]) if tail.startswith("m") else float(tail)
    try:
        return float(arg)
    except ValueError:
        return None


def _program(row: Row, program: str) -> list[tuple[str, list[str]]]:
    calls, pos = [], 0
    while pos < len(program):
        match = _CALL.match(program, pos)
        if not match or match.end() == pos:
            raise row.error("qa.program", f"cannot read the program at {program[pos:][:40]!r}")
        calls.append((match.group(1), [a.strip() for a in match.group(2).split(",")]))
        pos = match.end()
    if not calls:
        raise row.error("qa.program", "is empty")
    return calls


def _sentences(texts: list[str]) -> tuple[str, list[tuple[int, int] | None]]:
    """The sentences as one document (one a line, lone dots left out) and each one's span."""
    lines, spans, size = [], [], 0
    for sentence in texts:
        if sentence.strip() in ("", "."):
            spans.append(None)
            continue
        start = size + (1 if lines else 0)
        lines.append(sentence)
        size = start + len(sentence)
        spans.append((start, size))
    return "\n".join(lines), spans


class _Executor:
    def __init__(self, row: Row, table: list[list[Any]]) -> None:
        self.row, self.table, self.values = row, table, []

    def arg(self, arg: str) -> tuple[float, str]:
        if arg.startswith("#"):
            k = int(arg[1:]) if arg[1:].isdigit() else -1
            if not 0 <= k < len(self.values):
                raise self.row.error("qa.program", f"{arg} refers to no earlier step")
            return self.values[k], _fmt(self.values[k])
        value = _const(arg)
        if value is None:
            raise self.row.error("qa.program", f"cannot read the argument {arg!r}")
        return value, _fmt(value)

    def step(self, op: str, args: list[str]) -> tuple[str, float]:
        if op in _TABLE_OPS:
            name = args[0]
            cells = next((r[1:] for r in self.table[1:] if str(r[0]).strip() == name), None)
            numbers = [n for n in (_number(str(c)) for c in cells or []) if n is not None]
            if not numbers:
                raise self.row.error("qa.program", f"{op}: no numbers in the table row {name!r}")
            how = _TABLE_OPS[op]
            value = {
                "sum": sum(numbers),
                "average": sum(numbers) / len(numbers),
                "max": max(numbers),
                "min": min(numbers),
            }[how]
            shown = ", ".join(_fmt(n) for n in numbers)
            return f"The {how} of the “{name}” row ({shown}) = {_fmt(value)}", value
        if len(args) != 2:
            raise self.row.error("qa.program", f"{op} takes two arguments, got {len(args)}")
        (a, a_text), (b, b_text) = self.arg(args[0]), self.arg(args[1])
        if op == "greater":
            value = 1.0 if a > b else 0.0
            return f"{a_text} > {b_text}: {'yes' if a > b else 'no'}", value
        if op not in _SYMBOLS:
            raise self.row.error("qa.program", f"unknown operation {op!r}")
        try:
            value = _OPS[op](a, b)
        except (ZeroDivisionError, OverflowError) as exc:
            raise self.row.error("qa.program", f"{op}({a_text}, {b_text}): {exc}") from exc
        if not math.isfinite(value):
            raise self.row.error("qa.program", f"{op}({a_text}, {b_text}) is not finite")
        return f"{a_text} {_SYMBOLS[op]} {b_text} = {_fmt(value)}", value


def _cites(
    args: list[str],
    gold: dict[str, Any],
    table: list[list[Any]],
    spans: list[tuple[str, int, int] | None],
    sentences: list[str],
) -> list[dict[str, Any]]:
    """The gold facts a step's literal numbers come from."""
    wanted = {v for a in args if not a.startswith("#") and (v := _const(a)) is not None}
    out: list[dict[str, Any]] = []
    for key in gold:
        kind, _, index = str(key).partition("_")
        if not index.isdigit():
            continue
        i = int(index)
        if kind == "table" and 1 <= i < len(table):
            for c, cell in enumerate(table[i]):
                if c and _number(str(cell)) in wanted:
                    out.append({"table": "table", "row": i - 1, "column": c})
        elif kind == "text" and i < len(spans) and spans[i] is not None:
            found = {_number(t) for t in _NUMBER.findall(sentences[i].replace(",", ""))}
            if wanted & found:
                doc, start, end = spans[i]  # type: ignore[misc]
                out.append({"doc": doc, "start": start, "end": end})
    return out


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    qa = row.mapping(data, "qa")
    question = row.string(qa, "question", "qa")
    pre, post = row.strings(data, "pre_text"), row.strings(data, "post_text")
    table = row.array(data, "table")
    for i, cells in enumerate(table):
        if not isinstance(cells, list) or not cells:
            raise row.error(f"table[{i}]", "expected a non-empty list of cells")
        if len(cells) != len(table[0]):
            raise row.error(f"table[{i}]", f"{len(cells)} cells, the header has {len(table[0])}")
    if not table:
        raise row.error("table", "is empty")
    filename = row.string(data, "filename", optional=True)
    pre_doc, pre_spans = _sentences(pre)
    post_doc, post_spans = _sentences(post)
    spans = [("pre_text", *s) if s else None for s in pre_spans] + [
        ("post_text", *s) if s else None for s in post_spans
    ]
    source: dict[str, Any] = {
        "documents": [
            {"id": doc_id, "title": title, "text": text}
            for doc_id, title, text in (
                ("pre_text", "Text before the table", pre_doc),
                ("post_text", "Text after the table", post_doc),
            )
            if text.strip()
        ],
        "tables": [
            {
                "id": "table",
                "title": filename or "Table",
                "columns": [str(c) for c in table[0]],
                "rows": [[str(c) for c in r] for r in table[1:]],
            }
        ],
    }
    sources = Sources(row, source)
    gold = qa.get("gold_inds") or {}
    if not isinstance(gold, dict):
        raise row.error("qa.gold_inds", "expected an object")
    executor, steps = _Executor(row, table), []
    for k, (op, args) in enumerate(_program(row, row.string(qa, "program", "qa"))):
        text, value = executor.step(op, args)
        executor.values.append(value)
        cites = _cites(args, gold, table, spans, pre + post)
        metadata = {"citations": sources.citations(row, cites, f"qa.program[{k}]")} if cites else {}
        steps.append(ParsedStep(text, 1, [], metadata))
    ident = row.string(data, "id", optional=True)
    answer = qa.get("answer")
    answer = str(answer) if answer not in (None, "") else _fmt(float(qa.get("exe_ans") or 0))
    solution = ParsedSolution(
        external_id=f"{ident}:program" if ident else content_id("finqa", question, qa["program"]),
        steps=steps,
        generator="finqa-gold-program",
        final_answer=_fmt(executor.values[-1]),
        source="finqa",
        metadata={"program": qa["program"], "filename": filename},
        label_agent="finqa",
        label_annotator="finqa",
        finish_reason="solution",
    )
    problem = ParsedProblem(
        text=question,
        external_id=ident or problem_id(question),
        answer=answer,
        source="finqa",
        metadata=sources.metadata(),
    )
    return ParsedRow(line=row.line, problem=problem, solutions=[solution])
