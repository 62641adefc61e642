"""steplab's own JSON Lines: one solution a line.

    {"problem": str, "answer": str, "steps": [str] | "solution": str,
     "id", "problem_id", "generator", "final_answer", "answer_correct", "source",
     "metadata", "labels": [-1 | 0 | 1 | null, ...],
     "tests": str | {"code": str} | [{"input", "output"}] | {"inputs", "outputs"},
     "images": [URL | data: URI], "domain": str, "uses": [[int, ...], ...],
     "graph": {"directed", "weighted"?, "nodes"?, "edges"}, "task": {"kind", "source"?, "target"?},
     "documents": [{"id", "title", "text"}], "tables": [{"id", "title", "columns", "rows"}],
     "predictions": [{"name", "version", "labels": [...], "scores": [...]}]}
                                         (all but problem and steps/solution optional)

A step is a string or {"text": str, "images": [URL | data: URI], "uses": [int, ...],
"citations": [...], "thinking": bool}; images (of the problem or a step) are checked and stored by
labeling/importers/images.py and the import service. `uses` names the earlier steps (0-based
indices) a step builds on, either per step or as one list per step beside `labels`; a forward
or self reference, or an index out of range, fails the line. Without `uses` the import detects
them (labeling/importers/dependencies.py). Documents, tables and citations (evidence-cited
steps) are read by labeling/importers/evidence.py.

`solution` is split into steps by the import's step rule (else the project's:
labeling.steps.splitting); the steps of its `<think>...</think>` reasoning trace are marked
thinking (Step.thinking), as are step objects with "thinking": true. `labels` has at most one entry
per step; missing trailing entries are unlabeled steps (first-error style). `tests` are a
code problem's tests (assert code, or stdin/stdout cases), kept in the problem's metadata for
the code-execution source. Steps keep their indentation (code); blank lines around are dropped.
`domain` names the problem's domain (math, code, text, agent, ...): a many-domains (`mixed`)
project needs it on every row, or the import's domain option (labeling/importers/domains.py).
`graph` and `task` are a graph problem's (labeling/importers/graph.py), kept checked and
normalized in the problem's metadata for the graph checker and the drawing.
`predictions` are a team's own models' step labels (labeling/importers/predictions.py): each
becomes Suggestions of source "prediction" on the new solution, agent name@version.
"""

from typing import Any

from labeling.steps.splitting import StepRule, split_solution

from .dependencies import uses_normal, uses_problem
from .evidence import Sources
from .fields import Row
from .graph import graph_metadata
from .ids import content_id, problem_id, solution_id
from .images import parse_images
from .predictions import row_predictions
from .types import ParsedProblem, ParsedRow, ParsedSolution, ParsedStep

Step = tuple[str, dict[str, Any], bool]  # a step's text, metadata and thinking


def _trim(text: str) -> str:
    """Drop blank lines and outer space around a step, but keep a code line's indentation."""
    if text and not text[0].isspace():  # no blank first line, no indentation: the usual step
        return text.strip()
    lines = text.rstrip().splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    # Two spaces or a tab open an indented code line; a single stray space is just prose.
    code = bool(lines) and (lines[0].startswith(("  ", "\t")))
    return "\n".join(lines) if code else text.strip()


def _tests(row: Row, data: dict[str, Any]) -> Any:
    tests = data.get("tests")
    if tests is None or isinstance(tests, str):
        return tests
    if isinstance(tests, dict):
        if isinstance(tests.get("code"), str):
            return tests
        inputs, outputs = tests.get("inputs"), tests.get("outputs")
        if isinstance(inputs, list) and isinstance(outputs, list) and len(inputs) == len(outputs):
            return tests
        raise row.error(
            "tests", 'expected {"code": str} or {"inputs": [...], "outputs": [...]} of equal length'
        )
    if isinstance(tests, list):
        for i, case in enumerate(tests):
            if not isinstance(case, dict) or not ({"input", "stdin"} & case.keys()):
                raise row.error(f"tests[{i}]", 'expected an object with "input" and "output"')
        return tests
    raise row.error("tests", "expected assert code (a string), an object or a list of cases")


def _step_object(
    row: Row, item: dict[str, Any], at: str, media: dict[str, bytes], sources: Sources
) -> Step:
    text = row.string(item, "text", at)
    metadata: dict[str, Any] = {}
    if images := parse_images(row, item, at, media):
        metadata["images"] = images
    if item.get("citations") is not None:
        if not sources:
            raise row.error(f"{at}.citations", "the row has no `documents` or `tables` to cite")
        if citations := sources.citations(row, item["citations"], f"{at}.citations"):
            metadata["citations"] = citations
    return _trim(text), metadata, bool(row.boolean(item, "thinking", at, optional=True))


def _uses(row: Row, data: dict[str, Any], count: int) -> list[list[int] | None]:
    """Each step's `uses` from the line (a step object's, or the top-level list), or None."""
    out: list[list[int] | None] = [None] * count
    items = data.get("steps")
    if isinstance(items, list):
        for i, item in enumerate(items):
            if isinstance(item, dict) and item.get("uses") is not None:
                if why := uses_problem(item["uses"], i, count):
                    raise row.error(f"steps[{i}].uses", why)
                out[i] = uses_normal(item["uses"])
    if data.get("uses") is None:
        return out
    given = row.array(data, "uses")
    if len(given) > count:
        raise row.error("uses", f"{len(given)} entries for {count} steps")
    for i, uses in enumerate(given):
        if uses is None:
            continue
        if why := uses_problem(uses, i, count):
            raise row.error(f"uses[{i}]", why)
        if out[i] is not None:
            raise row.error(f"uses[{i}]", "given twice (here and in the step object)")
        out[i] = uses_normal(uses)
    return out


def _steps(row: Row, data: dict[str, Any], media: dict[str, bytes], sources: Sources) -> list[Step]:
    if data.get("steps") is not None:
        steps: list[Step] = []
        for i, item in enumerate(row.array(data, "steps")):
            if isinstance(item, dict):
                steps.append(_step_object(row, item, f"steps[{i}]", media, sources))
            else:
                text = item if isinstance(item, str) else row.text(item, f"steps[{i}]")
                steps.append((_trim(text), {}, False))
        return steps
    if data.get("solution") is None:
        raise row.error("steps", "missing field (give `steps` or `solution`)")
    text = row.string(data, "solution")
    options = row.options
    rule = StepRule(options.step_split, options.step_split_regex, options.step_split_tag)
    try:
        return [(t, {}, thinking) for t, thinking in split_solution(text, rule)]
    except ValueError as exc:
        raise row.error("solution", str(exc)) from exc


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    text = row.string(data, "problem")
    media: dict[str, bytes] = {}
    sources = Sources(row, data)
    steps = _steps(row, data, media, sources)
    texts = [t for t, _, _ in steps]
    labels: list[Any] = row.array(data, "labels") if data.get("labels") is not None else []
    if len(labels) > len(texts):
        raise row.error("labels", f"{len(labels)} labels for {len(texts)} steps")
    values = [
        v if v is None or (type(v) is int and -1 <= v <= 1) else row.rating(v, f"labels[{i}]")
        for i, v in enumerate(labels)
    ]
    values += [None] * (len(texts) - len(values))
    uses = _uses(row, data, len(texts))
    metadata = data.get("metadata") or {}
    if not isinstance(metadata, dict):
        row.mapping(data, "metadata")
    generator = row.string(data, "generator", optional=True)
    source = row.string(data, "source", optional=True)
    pid = row.identifier(data, "problem_id")
    sid = row.identifier(data, "id")
    graph = graph_metadata(row, data)
    if graph and not pid:  # the same question about another graph is another problem
        pid = content_id("problem", text, graph)
    solution = ParsedSolution(
        external_id=sid or solution_id(pid if graph else text, texts, generator),
        steps=[  # positional, one per step: half the time of keywords
            ParsedStep(t, v, [], meta, u, "", thinking)
            for (t, meta, thinking), v, u in zip(steps, values, uses, strict=True)
        ],
        generator=generator,
        final_answer=row.string(data, "final_answer", optional=True),
        answer_correct=row.boolean(data, "answer_correct", optional=True),
        source=source,
        metadata=metadata,
        label_agent=source or "steplab",
        label_annotator=source or "steplab",
        # Labels that stop at a wrong step, the rest unlabeled, are a first-error annotation.
        finish_reason="found_error"
        if values and labels and labels[-1] == -1 and len(labels) < len(texts)
        else "solution",
        predictions=row_predictions(row, data, len(texts)),
    )
    problem = ParsedProblem(
        text=text,
        external_id=pid or problem_id(text),
        answer=row.string(data, "answer", optional=True),
        reference_solution=row.string(data, "reference_solution", optional=True),
        source=source,
        metadata={"tests": tests} if (tests := _tests(row, data)) is not None else {},
        domain=row.string(data, "domain", optional=True),
    )
    problem.metadata.update(graph)
    if images := parse_images(row, data, "", media):
        problem.metadata["images"] = images
    problem.metadata.update(sources.metadata())
    return ParsedRow(line=row.line, problem=problem, solutions=[solution], media=media)
