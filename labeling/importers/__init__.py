"""Parsers for PRM datasets: JSON Lines in, plain dataclasses out, no database.

    with open_rows(path, fmt="auto", filename="x.jsonl") as rows:
        for row in rows:          # ParsedRow: a problem and its solutions
            ...
        rows.format, rows.rows, rows.bytes_done

Every problem with a line raises ImportFileError(file, line, field, message).
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from . import (
    alfworld,
    embodied,
    finqa,
    graphsilo,
    gsm8k,
    math_dataset,
    math_shepherd,
    messages,
    prm800k,
    prm800k_mrmath,
    prmbench,
    processbench,
    steplab,
    trl,
)
from .dependencies import detect_uses
from .detect import detect_format
from .domains import settle as settle_domain
from .errors import ImportFileError
from .fields import Row
from .limits import check_lengths
from .reader import MAX_DEPTH, MAX_LINE_BYTES, JsonLinesReader, Source, open_source
from .types import (
    ParsedAlternative,
    ParsedProblem,
    ParsedRow,
    ParsedSolution,
    ParsedStep,
    ParseOptions,
)

Parser = Callable[[dict[str, Any], Row], ParsedRow]

PARSERS: dict[str, Parser] = {
    "prm800k": prm800k.parse,
    "prm800k_mrmath": prm800k_mrmath.parse,
    "processbench": processbench.parse,
    "prmbench": prmbench.parse,
    "math_shepherd": math_shepherd.parse,
    "trl": trl.parse,
    "gsm8k": gsm8k.parse,
    "math": math_dataset.parse,
    "steplab": steplab.parse,
    "messages": messages.parse,
    "graphsilo": graphsilo.parse,
    "embodied": embodied.parse,
    "alfworld": alfworld.parse,
    "finqa": finqa.parse,
}
FORMATS = ("auto", *PARSERS)


class RowStream:
    """The parsed rows of one file, read lazily; `format` is known once the first row is."""

    def __init__(self, reader: JsonLinesReader, *, fmt: str, options: ParseOptions) -> None:
        if fmt not in FORMATS:
            raise ImportFileError(
                file=reader.filename,
                line=None,
                field="format",
                message=f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}",
            )
        self.format = fmt
        self.rows = 0
        self._reader = reader
        self._options = options

    @property
    def bytes_done(self) -> int:
        return self._reader.bytes_done

    def __iter__(self) -> Iterator[ParsedRow]:
        reader, options = self._reader, self._options
        parse: Parser | None = PARSERS.get(self.format)
        for line in reader:
            if parse is None:
                detected = detect_format(line.data)
                if detected is None:
                    raise ImportFileError(
                        file=reader.filename,
                        line=line.number,
                        field=None,
                        message="cannot tell the format from the keys "
                        f"{sorted(line.data)[:12]}; pass a format explicitly",
                    )
                self.format, parse = detected, PARSERS[detected]
            self.rows += 1
            row = Row(file=reader.filename, line=line.number, options=options)
            parsed = parse(line.data, row)
            check_lengths(parsed, row)
            settle_domain(parsed, row)
            fill_uses(parsed, detect=options.detect_uses)
            yield parsed
        if self.rows == 0:
            raise ImportFileError(
                file=reader.filename, line=None, field=None, message="the file has no rows"
            )


def fill_uses(parsed: ParsedRow, *, detect: bool = True) -> None:
    """Each step's `uses`: the file's where it gave any for the solution (steps it left out
    use nothing), else what the detector finds in the text (`detect`), else none."""
    for solution in parsed.solutions:
        steps = solution.steps
        if any(step.uses is not None for step in steps):
            for step in steps:
                if step.uses is None:
                    step.uses = []
                step.uses_source = "import"
            continue
        if not detect:
            continue
        found = detect_uses([s.text for s in steps], parsed.problem.text)
        for step, uses in zip(steps, found, strict=True):
            step.uses = uses
            step.uses_source = "detected" if uses else ""


@contextmanager
def open_rows(
    source: Source, *, fmt: str = "auto", filename: str, options: ParseOptions | None = None
) -> Iterator[RowStream]:
    with open_source(source) as raw:
        reader = JsonLinesReader(raw, filename=filename)
        yield RowStream(reader, fmt=fmt, options=options or ParseOptions())


__all__ = [
    "FORMATS",
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "PARSERS",
    "ImportFileError",
    "ParseOptions",
    "ParsedAlternative",
    "ParsedProblem",
    "ParsedRow",
    "ParsedSolution",
    "ParsedStep",
    "RowStream",
    "detect_format",
    "open_rows",
]
