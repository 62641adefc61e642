"""Rows rendered with a tokenizer's chat template: {text, label_positions, labels}.

The Qwen PRM convention: the messages are the system prompt (`label_policy.system_prompt`,
left out when blank), the user turn (the problem) and the assistant turn (the labeled
prefix's steps, each followed by `label_policy.step_separator`, "<extra_0>" by default),
rendered by `label_policy.tokenizer`'s chat template into `text`. `label_positions` are the
token indices of the separators in `tokenizer(text, add_special_tokens=False)["input_ids"]`
(the template writes the special tokens itself), one per step, and `labels` the steps'
training labels in the same order; with `soft_labels`, `soft_labels` beside them (floats in
[0, 1]). A trainer gathers its logits at `label_positions` and needs no glue code.

A row whose problem or steps contain the separator, or whose tokenization does not put
exactly one separator after each step, is left out and counted (`separator_in_text`).
`dependency_policy` writes nothing here; `inherit` still changes the labels.
"""

from labeling.exporters.chat_tokenizer import chat_tokenizer
from labeling.exporters.options import ExportOptions
from labeling.exporters.policy import labeled_prefix, soft_label
from labeling.exporters.records import SolutionRecord

from .base import Format, Row, Stats


class ChatTemplateFormat(Format):
    name = "chat_template"

    @classmethod
    def check(cls, options: ExportOptions) -> None:
        chat_tokenizer(options.label_policy.tokenizer, options.label_policy.step_separator)

    def __init__(self, options: ExportOptions, stats: Stats) -> None:
        super().__init__(options, stats)
        self.tokenizer, self.separator_id = chat_tokenizer(
            self.policy.tokenizer, self.policy.step_separator
        )

    def feed(self, record: SolutionRecord, split: str | None) -> list[Row]:
        prefix = labeled_prefix(record, self.policy, self.filters)
        if not prefix:
            self.stats.skipped["no_labeled_prefix"] += 1
            return []
        sep = self.policy.step_separator
        if sep in record.problem_text or any(sep in step.text for step, _ in prefix):
            self.stats.skipped["separator_in_text"] += 1
            return []
        messages = [{"role": "system", "content": self.policy.system_prompt}]
        messages = messages if self.policy.system_prompt else []
        messages += [
            {"role": "user", "content": record.problem_text},
            {"role": "assistant", "content": "".join(s.text + sep for s, _ in prefix)},
        ]
        text = self.tokenizer.apply_chat_template(messages, tokenize=False)
        ids = self.tokenizer(text, add_special_tokens=False)["input_ids"]
        positions = [k for k, i in enumerate(ids) if i == self.separator_id]
        if len(positions) != len(prefix):  # the template itself writes the separator
            self.stats.skipped["separator_in_text"] += 1
            return []
        row: Row = {
            "text": text,
            "label_positions": positions,
            "labels": [label for _, label in prefix],
        }
        if self.policy.soft_labels:
            row["soft_labels"] = [soft_label(step, label) for step, label in prefix]
        self.stats.steps_of(prefix)
        self.count_row(record, split)
        return [self.with_split(row, split)]

    def schema(self):
        import pyarrow as pa

        columns = [
            pa.field("text", pa.string()),
            pa.field("label_positions", pa.list_(pa.int64())),
            pa.field("labels", pa.list_(pa.bool_())),
        ]
        if self.policy.soft_labels:
            columns.append(pa.field("soft_labels", pa.list_(pa.float64())))
        return pa.schema(columns + self.split_field())
