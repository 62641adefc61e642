"""OpenRLHF's process reward layout: {input, label}.

What OpenRLHF's `ProcessRewardDataset` reads with `--input_key input --label_key label
--placeholder_token ки --reward_tokens + -`: `input` is the problem, a newline, then the
labeled prefix's steps joined by newlines, each followed by a space and the placeholder
token; `label` is one entry per placeholder, in order: the reward token of the step's training
label (`label_policy.reward_tokens`, "+" / "-" by default) or, with `label_policy.soft_labels`,
a float in [0, 1] (the step's Monte-Carlo estimate, else the share of positive votes, else
its hard label as 1.0 / 0.0), which OpenRLHF trains on as a regression target.

OpenRLHF finds the steps by the placeholder's token id, so a row whose problem or steps
already contain the placeholder would put labels in the wrong places: it is left out and
counted (`placeholder_in_text`). As in Math-Shepherd, `dependency_policy` writes nothing
(a row is a string and a list), though `inherit` still changes the labels.
"""

from labeling.exporters.policy import labeled_prefix, soft_label
from labeling.exporters.records import SolutionRecord

from .base import Format, Row


class OpenRlhfFormat(Format):
    name = "openrlhf"

    def feed(self, record: SolutionRecord, split: str | None) -> list[Row]:
        prefix = labeled_prefix(record, self.policy, self.filters)
        if not prefix:
            self.stats.skipped["no_labeled_prefix"] += 1
            return []
        tag = self.policy.placeholder_token
        if tag in record.problem_text or any(tag in step.text for step, _ in prefix):
            self.stats.skipped["placeholder_in_text"] += 1
            return []
        good, bad = self.policy.reward_tokens
        labels: list = (
            [soft_label(step, label) for step, label in prefix]
            if self.policy.soft_labels
            else [good if label else bad for _, label in prefix]
        )
        row: Row = {
            "input": record.problem_text + "\n" + "\n".join(f"{s.text} {tag}" for s, _ in prefix),
            "label": labels,
        }
        self.stats.steps_of(prefix)
        self.count_row(record, split)
        return [self.with_split(row, split)]

    def schema(self):
        import pyarrow as pa

        label = pa.float64() if self.policy.soft_labels else pa.string()
        return pa.schema(
            [
                pa.field("input", pa.string()),
                pa.field("label", pa.list_(label)),
                *self.split_field(),
            ]
        )
