"""Pairwise step preferences: {prompt, prefix: [step, ...], chosen, rejected}.

For one problem and one prefix of steps that are all labeled correct, every distinct next
step labeled correct is paired with every distinct next step labeled wrong. Candidates come
from the labeled prefixes of the problem's solutions (solutions that share their first k
steps, as rollout trees and OmegaPRM searches produce) and from the alternatives kept at a
position (PRM800K rates several completions at each step: the ones not taken keep their
imported rating). A next step that is labeled both ways is left out. Records arrive
ordered by problem, so only one problem's candidates are held at a time.

With a `dependency_policy` other than "none", `chosen_uses` and `rejected_uses` follow
`rejected`: the earlier steps the next step uses, 0-based indices into `prefix` (a next
step can only use steps of its prefix). They come from the solutions that took that step
after that prefix; where those marked it differently, the most frequent marking (the first
seen on a tie). A step seen only as an alternative (a PRM800K completion not taken) has no
dependencies on record: null. The prefix steps' own `uses` are not written (solutions that
share the prefix's text may mark them differently), and there is no `inherited`: the prefix
is all correct, so a next step never builds on a -1 step and `inherit` changes no pair.
"""

import hashlib
from dataclasses import dataclass, field

from labeling.exporters.policy import labeled_prefix
from labeling.exporters.records import SolutionRecord
from labeling.steps.uses import majority_uses

from .base import Format, Row


@dataclass
class _Node:
    prefix: list[str]
    labels: dict[str, set[bool]] = field(default_factory=dict)  # next step text → labels seen
    # next step text → each `uses` seen on it, in order (dependency policies only)
    uses: dict[str, list[tuple[int, ...]]] = field(default_factory=dict)

    def add(self, text: str, label: bool) -> None:
        self.labels.setdefault(text, set()).add(label)

    def add_uses(self, text: str, uses: tuple[int, ...]) -> None:
        self.uses.setdefault(text, []).append(uses)

    def uses_of(self, text: str) -> list[int] | None:
        return majority_uses(self.uses.get(text, ()))


def _key(prefix: list[str]) -> str:
    digest = hashlib.sha256()
    for text in prefix:
        digest.update(text.encode())
        digest.update(b"\x00")
    return f"{len(prefix)}:{digest.hexdigest()}"


class PairwiseFormat(Format):
    name = "pairwise"
    needs_alternatives = True

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._problem: tuple[str, str, str, str | None] | None = None  # key, text, source, split
        self._nodes: dict[str, _Node] = {}

    def _node(self, prefix: list[str]) -> _Node:
        key = _key(prefix)
        if key not in self._nodes:
            self._nodes[key] = _Node(prefix=list(prefix))
        return self._nodes[key]

    def feed(self, record: SolutionRecord, split: str | None) -> list[Row]:
        out: list[Row] = []
        if self._problem is None or self._problem[0] != record.problem_key:
            out = self.finish()
            self._problem = (record.problem_key, record.problem_text, record.problem_source, split)
        prefix = labeled_prefix(record, self.policy, self.filters)
        texts: list[str] = []
        for k, step in enumerate(record.steps):
            node = self._node(texts)
            for alt in step.alternatives:
                if not alt.is_chosen and alt.rating is not None and alt.text.strip():
                    node.add(alt.text.strip(), self.positive(alt.rating))
            if k == len(prefix):
                break
            step_record, label = prefix[k]
            node.add(step_record.text, label)
            if self.with_dependencies:
                node.add_uses(step_record.text, tuple(step_record.uses))
            if not label:
                break
            texts.append(step_record.text)
        return out

    def finish(self) -> list[Row]:
        if self._problem is None:
            return []
        key, prompt, source, split = self._problem
        rows: list[Row] = []
        for node in self._nodes.values():
            good = [t for t, seen in node.labels.items() if seen == {True}]
            bad = [t for t, seen in node.labels.items() if seen == {False}]
            for chosen in good:
                for rejected in bad:
                    row: Row = {
                        "prompt": prompt,
                        "prefix": node.prefix,
                        "chosen": chosen,
                        "rejected": rejected,
                    }
                    if self.with_dependencies:
                        row["chosen_uses"] = node.uses_of(chosen)
                        row["rejected_uses"] = node.uses_of(rejected)
                    rows.append(self.with_split(row, split))
                    self.stats.row(problem_key=key, problem_source=source, split=split)
                    self.stats.steps += 2
                    self.stats.labels.update(("positive", "negative"))
        if not rows:
            self.stats.skipped["problems_without_pairs"] += 1
        self._problem, self._nodes = None, {}
        return rows

    def schema(self):
        import pyarrow as pa

        columns = [
            pa.field("prompt", pa.string()),
            pa.field("prefix", pa.list_(pa.string())),
            pa.field("chosen", pa.string()),
            pa.field("rejected", pa.string()),
        ]
        if self.with_dependencies:
            columns.append(pa.field("chosen_uses", pa.list_(pa.int64())))
            columns.append(pa.field("rejected_uses", pa.list_(pa.int64())))
        return pa.schema(columns + self.split_field())
