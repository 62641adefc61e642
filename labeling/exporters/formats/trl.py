"""TRL stepwise supervision: {prompt, completions: [step, ...], labels: [bool, ...]}.

The shape of trl-lib/math_shepherd and trl-lib/prm800k that TRL's PRMTrainer reads. TRL
casts labels with int(), so soft labels go in a column of their own (`soft_labels`, floats
in [0, 1]) and so do the label sources (`label_sources`), each only when the policy asks.
A many-domains project's rows carry their problem's `domain` (training evaluates per domain).
With a `dependency_policy` other than "none", `uses` (per step, the earlier steps it uses,
0-based within the row) and `inherited` (per step: made -1 by `inherit`) are written too.
A project with reasoning steps (`<think>` blocks) gets `thinking` (per step: a step of the
reasoning trace); the completions hold the reasoning steps, then the answer's.
"""

from labeling.exporters.policy import labeled_prefix, soft_label
from labeling.exporters.records import SolutionRecord

from .base import Format, Row


class TrlFormat(Format):
    name = "trl"

    def feed(self, record: SolutionRecord, split: str | None) -> list[Row]:
        prefix = labeled_prefix(record, self.policy, self.filters)
        if not prefix:
            self.stats.skipped["no_labeled_prefix"] += 1
            return []
        row: Row = {
            "prompt": record.problem_text,
            "completions": [step.text for step, _ in prefix],
            "labels": [label for _, label in prefix],
        }
        if self.policy.soft_labels:
            row["soft_labels"] = [soft_label(step, label) for step, label in prefix]
        if self.policy.label_sources:
            row["label_sources"] = [
                step.source or ("human_written" if step.human_written else "") for step, _ in prefix
            ]
        if self.with_domain:
            row["domain"] = self.domain_of(record)
        if self.with_dependencies:
            row.update(self.dependency_columns([step for step, _ in prefix]))
        row.update(self.thinking_column([step for step, _ in prefix]))
        row.update(self.evidence_columns(record, [step for step, _ in prefix]))
        if self.with_images:
            # The problem's images, then the written steps' (TRL's vision datasets: `images`).
            row["images"] = record.problem_images + [i for s, _ in prefix for i in s.images]
            self.stats.images += len(row["images"])
        self.stats.steps_of(prefix)
        self.count_row(record, split)
        return [self.with_split(row, split)]

    def schema(self):
        import pyarrow as pa

        columns = [
            pa.field("prompt", pa.string()),
            pa.field("completions", pa.list_(pa.string())),
            pa.field("labels", pa.list_(pa.bool_())),
        ]
        if self.policy.soft_labels:
            columns.append(pa.field("soft_labels", pa.list_(pa.float64())))
        if self.policy.label_sources:
            columns.append(pa.field("label_sources", pa.list_(pa.string())))
        if self.with_domain:
            columns.append(pa.field("domain", pa.string()))
        columns += self.dependency_fields()
        columns += self.thinking_field()
        if self.with_images:
            columns.append(pa.field("images", pa.list_(pa.string())))
        return pa.schema(columns + self.evidence_fields() + self.split_field())

    def parquet_row(self, row: Row) -> Row:
        return self.evidence_parquet(row)
