"""PRM800K rows: {labeler, timestamp, generation, is_quality_control_question,
is_initial_screening_question, question: {...}, label: {steps, total_time, finish_reason}}.

Ratings stay −1 / 0 / +1 / null (no boolean mapping). Every step lists its completions
with their rating and flag, `human_completion` and `chosen_completion`, rebuilt from the
StepAlternative rows the importer kept; the alternative the trajectory took carries the
step's exported label, the others keep their imported rating. A solution without
alternatives gets one completion per step. A solution imported from PRM800K keeps its
phase-2 question fields (`ground_truth_solution`, `pre_generated_*`) and, while nothing cut
its row short, its trailing steps. When the labels are exactly the imported ones the
labeler, timestamp, total time and finish reason are the file's; otherwise they describe
the exported labels (annotator names, latest label time, time spent, finish reason).

`label.steps` covers the steps up to the last labeled one (an imported PRM800K row: the
steps its file had), cut after the first error when `truncate_after_first_error`, or
before the first unsure step when `unsure=truncate`. A null rating is kept as null.

With a `dependency_policy` other than "none", each step of the trajectory (the dict in
`label.steps`, beside `chosen_completion`) also has `uses` (the earlier steps it uses, 0-based
indices into `label.steps`) and `inherited` (made -1 by `inherit`). They belong to the step
the trajectory took, not to one completion: the alternatives not taken have no dependencies
of their own. An imported row's trailing steps (positions after the trajectory ended) are
written verbatim, without them. A project with reasoning steps (`<think>` blocks) gives
each trajectory step `thinking` (a step of the reasoning trace) the same way.
"""

from typing import Any

from labeling.exporters.options import Unsure
from labeling.exporters.policy import training_label
from labeling.exporters.records import AlternativeRecord, SolutionRecord, StepRecord

from .base import Format, Row

_INTERNAL_KEYS = {"pre_generated"}  # set by the importer, not part of the file


def _extras(alt: AlternativeRecord) -> dict[str, Any]:
    return {k: alt.metadata[k] for k in sorted(alt.metadata) if k not in _INTERNAL_KEYS}


def _completion(alt: AlternativeRecord, rating: int | None) -> dict[str, Any]:
    return {"text": alt.text, "rating": rating, "flagged": alt.flagged, **_extras(alt)}


def _label_step(step: StepRecord) -> dict[str, Any]:
    if not step.alternatives:
        return {
            "completions": [{"text": step.text, "rating": step.rating, "flagged": False}],
            "human_completion": None,
            "chosen_completion": 0,
        }
    others = [a for a in step.alternatives if not a.is_human]
    human = next((a for a in step.alternatives if a.is_human), None)
    # The alternative holding the trajectory step: the chosen one, else (phase 2) the one
    # the importer matched to the pre-generated text.
    carrier = next((a for a in step.alternatives if a.is_chosen), None)
    carrier = carrier or next((a for a in others if a.metadata.get("pre_generated")), None)
    completions = [_completion(a, step.rating if a is carrier else a.rating) for a in others]
    human_completion: Any = None
    if human is not None:
        rating = step.rating if human is carrier else human.rating
        plain = rating is None and human.flagged is None and not human.metadata
        human_completion = human.text if plain else _completion(human, rating)
    chosen = next((a.position for a in others if a.is_chosen), None)
    return {
        "completions": completions or None,
        "human_completion": human_completion,
        "chosen_completion": chosen,
    }


class Prm800kFormat(Format):
    name = "prm800k"
    needs_alternatives = True

    def _covered(self, record: SolutionRecord, meta: dict | None) -> int:
        if meta is not None and record.from_import and isinstance(meta.get("labeled_steps"), int):
            return min(meta["labeled_steps"], len(record.steps))
        rated = [k for k, s in enumerate(record.steps) if s.rating is not None]
        return rated[-1] + 1 if rated else 0

    def _cut(self, record: SolutionRecord, covered: int) -> int:
        for k, step in enumerate(record.steps[:covered]):
            if step.unsure and self.filters.unsure == Unsure.TRUNCATE:
                return k
            if (
                self.policy.truncate_after_first_error
                and training_label(step, self.policy) is False
            ):
                return k + 1
        return covered

    def feed(self, record: SolutionRecord, split: str | None) -> list[Row]:
        meta = record.metadata.get("prm800k")
        meta = meta if isinstance(meta, dict) else None
        covered = self._covered(record, meta)
        cut = self._cut(record, covered)
        if cut == 0:
            self.stats.skipped["no_labeled_prefix"] += 1
            return []
        whole = cut == covered
        origin = meta is not None and record.from_import
        steps = record.steps[:cut]
        label_steps = [_label_step(step) for step in steps]
        if self.with_dependencies:
            for entry, step in zip(label_steps, steps, strict=True):
                entry.update(self.step_dependencies(step))
        if self.with_thinking:
            for entry, step in zip(label_steps, steps, strict=True):
                entry["thinking"] = step.thinking
        if origin and whole:
            label_steps += meta.get("trailing_steps") or []
        if origin and whole:
            finish = meta.get("finish_reason") or ""
        elif whole and record.finish_reason:
            finish = record.finish_reason
        else:
            last = training_label(steps[-1], self.policy)
            finish = "found_error" if last is False else "solution"
        question: dict[str, Any] = {"problem": record.problem_text}
        phase2 = meta is not None and meta.get("phase") == 2
        if phase2:
            question["ground_truth_solution"] = record.problem_reference or None
        question["ground_truth_answer"] = record.problem_answer or None
        if phase2:
            question["pre_generated_steps"] = [s.text for s in record.steps]
            for key in ("pre_generated_answer", "pre_generated_verifier_score"):
                if key in meta:
                    question[key] = meta[key]
        meta = meta or {}
        labeled_at = record.labeled_at.isoformat() if record.labeled_at else None
        row: Row = {
            "labeler": meta.get("labeler") if origin else record.labeler,
            "timestamp": meta.get("timestamp") if origin else labeled_at,
            "generation": meta.get("generation"),
            "is_quality_control_question": bool(meta.get("is_quality_control_question")),
            "is_initial_screening_question": bool(meta.get("is_initial_screening_question")),
            "question": question,
            "label": {
                "steps": label_steps,
                "total_time": meta.get("total_time") if origin else record.time_spent_ms,
                "finish_reason": finish,
            },
        }
        for step in steps:
            self.stats.step(step, training_label(step, self.policy))
        self.count_row(record, split)
        return [self.with_split(row, split)]

    def parquet_row(self, row: Row) -> Row:
        steps = row["label"]["steps"]
        fixed = []
        for step in steps:
            human = step.get("human_completion")
            if isinstance(human, str):
                human = {"text": human}
            fixed.append({**step, "human_completion": human})
        return {**row, "label": {**row["label"], "steps": fixed}}

    def schema(self):
        import pyarrow as pa

        completion = pa.struct(
            [
                pa.field("text", pa.string()),
                pa.field("rating", pa.int8()),
                pa.field("flagged", pa.bool_()),
                pa.field("source", pa.string()),
            ]
        )
        step_fields = [
            pa.field("completions", pa.list_(completion)),
            pa.field("human_completion", completion),
            pa.field("chosen_completion", pa.int64()),
        ]
        step_fields += self.dependency_fields(per_step=True)
        if self.with_thinking:
            step_fields.append(pa.field("thinking", pa.bool_()))
        step = pa.struct(step_fields)
        question = pa.struct(
            [
                pa.field("problem", pa.string()),
                pa.field("ground_truth_solution", pa.string()),
                pa.field("ground_truth_answer", pa.string()),
                pa.field("pre_generated_steps", pa.list_(pa.string())),
                pa.field("pre_generated_answer", pa.string()),
                pa.field("pre_generated_verifier_score", pa.float64()),
            ]
        )
        label = pa.struct(
            [
                pa.field("steps", pa.list_(step)),
                pa.field("total_time", pa.int64()),
                pa.field("finish_reason", pa.string()),
            ]
        )
        return pa.schema(
            [
                pa.field("labeler", pa.string()),
                pa.field("timestamp", pa.string()),
                pa.field("generation", pa.int64()),
                pa.field("is_quality_control_question", pa.bool_()),
                pa.field("is_initial_screening_question", pa.bool_()),
                pa.field("question", question),
                pa.field("label", label),
                *self.split_field(),
            ]
        )
