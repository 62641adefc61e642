"""ProcessBench: {id, generator, problem, steps, final_answer_correct, label}.

`steps` are all the solution's steps; `label` is the 0-based index of the earliest step
whose training label is negative, or -1 when every step is positive. A solution whose
steps before the first error (or any step, when none is wrong) are not all labeled is
skipped (`incomplete` in the card): its earliest error is unknown. An unsure step counts
as unlabeled unless `unsure=keep`. `id` is the ProcessBench id of an imported row, else
the solution's external id.

With a `dependency_policy` other than "none", two lists parallel to `steps` follow `label`:
`uses` (per step, the earlier steps it uses, 0-based indices into `steps`) and `inherited`
(per step: made -1 by `inherit`). `inherit` cannot move `label`: a step only inherits from
an earlier -1 step, which is already the first error or comes after it. A project with
reasoning steps gets `thinking`, per step: a step of the `<think>` reasoning trace.
"""

from labeling.exporters.options import Unsure
from labeling.exporters.policy import training_label
from labeling.exporters.records import SolutionRecord

from .base import Format, Row


class ProcessBenchFormat(Format):
    name = "processbench"

    def _first_error(self, record: SolutionRecord) -> int | None:
        for k, step in enumerate(record.steps):
            label = training_label(step, self.policy)
            if label is None or (step.unsure and self.filters.unsure != Unsure.KEEP):
                return None
            if not label:
                return k
        return -1

    def feed(self, record: SolutionRecord, split: str | None) -> list[Row]:
        first = self._first_error(record)
        if first is None or not record.steps:
            self.stats.skipped["incomplete"] += 1
            return []
        meta = record.metadata.get("processbench")
        row_id = meta.get("id") if isinstance(meta, dict) else None
        row: Row = {
            "id": row_id if row_id is not None else record.external_id,
            "generator": record.generator,
            "problem": record.problem_text,
            "steps": [step.text for step in record.steps],
            "final_answer_correct": record.answer_correct,
            "label": first,
            **self.dependency_columns(record.steps),
            **self.thinking_column(record.steps),
            **self.evidence_columns(record, record.steps),
        }
        for k, step in enumerate(record.steps):
            judged = first < 0 or k <= first
            self.stats.step(step, training_label(step, self.policy) if judged else None)
        self.count_row(record, split)
        return [self.with_split(row, split)]

    def parquet_row(self, row: Row) -> Row:
        return self.evidence_parquet({**row, "id": str(row["id"])})

    def schema(self):
        import pyarrow as pa

        return pa.schema(
            [
                pa.field("id", pa.string()),
                pa.field("generator", pa.string()),
                pa.field("problem", pa.string()),
                pa.field("steps", pa.list_(pa.string())),
                pa.field("final_answer_correct", pa.bool_()),
                pa.field("label", pa.int64()),
                *self.dependency_fields(),
                *self.thinking_field(),
                *self.evidence_fields(),
                *self.split_field(),
            ]
        )
