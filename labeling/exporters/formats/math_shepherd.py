"""Math-Shepherd: {input, label, task}.

`input` is the problem, a space, then the steps "Step k: ..." each followed by the tag " ки"
and joined by newlines; `label` is the same text with each tag replaced by " +" or " -"
(the step's training label). Steps that do not start with "Step k:" get that prefix, so
the file re-imports. `task` is the Math-Shepherd task of an imported row (GSM8K / MATH),
else the problem's source.

`dependency_policy` writes nothing here: a row is two strings with no per-step place for
`uses` or `inherited` (a key beside `input` would not be Math-Shepherd any more). `inherit`
still applies, since it changes the labels: an inherited step is tagged " -". For the
dependencies themselves export TRL, ProcessBench, PRM800K or dense rewards.
"""

import re

from labeling.exporters.policy import labeled_prefix
from labeling.exporters.records import SolutionRecord

from .base import Format, Row

TAG = " ки"
_STEP_MARK = re.compile(r"^Step \d+\s*:")


def step_text(text: str, k: int) -> str:
    return text if _STEP_MARK.match(text) else f"Step {k + 1}: {text}"


class MathShepherdFormat(Format):
    name = "math_shepherd"

    def feed(self, record: SolutionRecord, split: str | None) -> list[Row]:
        prefix = labeled_prefix(record, self.policy, self.filters)
        if not prefix:
            self.stats.skipped["no_labeled_prefix"] += 1
            return []
        texts = [step_text(step.text, k) for k, (step, _) in enumerate(prefix)]
        marks = [" +" if label else " -" for _, label in prefix]
        head = record.problem_text + " "
        meta = record.metadata.get("math_shepherd")
        task = meta.get("task") if isinstance(meta, dict) else None
        row: Row = {
            "input": head + "\n".join(t + TAG for t in texts),
            "label": head + "\n".join(t + m for t, m in zip(texts, marks, strict=True)),
            "task": task if task is not None else record.problem_source,
        }
        for step, label in prefix:
            self.stats.step(step, label)
        self.count_row(record, split)
        return [self.with_split(row, split)]

    def schema(self):
        import pyarrow as pa

        return pa.schema(
            [
                pa.field("input", pa.string()),
                pa.field("label", pa.string()),
                pa.field("task", pa.string()),
                *self.split_field(),
            ]
        )
