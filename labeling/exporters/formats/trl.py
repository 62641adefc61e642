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

from operator import attrgetter

from labeling.exporters.policy import labeled_steps, soft_label
from labeling.exporters.records import SolutionRecord

from .base import Format, Row

_text = attrgetter("text")


class TrlFormat(Format):
    name = "trl"

    def takes_columns(self) -> bool:
        """Rows of the steps' texts and labels alone: the records may carry columns
        (labeling.exporters.columnar) instead of steps."""
        policy = self.policy
        return not (
            policy.soft_labels
            or policy.label_sources
            or self.with_domain
            or self.with_dependencies
            or self.with_thinking
            or self.with_evidence
            or self.with_images
        )

    def feed(self, record: SolutionRecord, split: str | None) -> list[Row]:
        if (columns := record.columns) is not None:
            if not columns.texts:
                self.stats.skipped["no_labeled_prefix"] += 1
                return []
            row: Row = {
                "prompt": record.problem_text,
                "completions": columns.texts,
                "labels": columns.labels,
            }
            self.stats.columns_labelled(columns)
            self.count_row(record, split)
            return [self.with_split(row, split)]
        steps, labels = labeled_steps(record, self.policy, self.filters)
        if not steps:
            self.stats.skipped["no_labeled_prefix"] += 1
            return []
        row = {"prompt": record.problem_text, "completions": list(map(_text, steps))}
        row["labels"] = labels
        if self.policy.soft_labels:
            row["soft_labels"] = list(map(soft_label, steps, labels))
        if self.policy.label_sources:
            row["label_sources"] = [
                step.source or ("human_written" if step.human_written else "") for step in steps
            ]
        if self.with_domain:
            row["domain"] = self.domain_of(record)
        if self.with_dependencies:
            row.update(self.dependency_columns(steps))
        if self.with_thinking:
            row.update(self.thinking_column(steps))
        if self.with_evidence:
            row.update(self.evidence_columns(record, steps))
        if self.with_images:
            # The problem's images, then the written steps' (TRL's vision datasets: `images`).
            row["images"] = record.problem_images + [i for s in steps for i in s.images]
            self.stats.images += len(row["images"])
        self.stats.steps_labelled(steps, labels)
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
