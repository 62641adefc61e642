"""PRM800K raw rows (openai/prm800k `phase{1,2}_{train,test}.jsonl`): one labelled solution.

Phase 1: at each position the labeler rated several completions and the trajectory continued
with `completions[chosen_completion]`, or with their own `human_completion` when none was good.
Phase 2 (`question.pre_generated_steps` present): a whole pre-generated solution, rated step
by step up to the first error (`finish_reason: found_error`); steps after it are unlabeled.
Every completion of a position is kept as an alternative; positions after the trajectory
ended (an all-null last step, or a last step whose completions were never chosen) are kept
verbatim in `metadata["prm800k"]["trailing_steps"]` so an export can rebuild the row.
"""

import json
from datetime import UTC, datetime
from typing import Any

from labeling.models.annotation import FinishReason

from .fields import Row, json_type
from .ids import content_id, problem_id
from .types import ParsedAlternative, ParsedProblem, ParsedRow, ParsedSolution, ParsedStep

GENERATOR = "GPT-4 (PRM800K)"
FINISH_REASONS = set(FinishReason.values)
_ANSWER_MARK = "# Answer"


def _alternatives(row: Row, raw: dict[str, Any], at: str) -> list[ParsedAlternative]:
    completions = row.get(raw, "completions", at, default=None)
    if completions is not None and not isinstance(completions, list):
        row.array(raw, "completions", at)  # raises the typed error
    chosen = row.get(raw, "chosen_completion", at, default=None)
    if chosen is not None:
        chosen = row.integer(raw, "chosen_completion", at)
        if not 0 <= chosen < len(completions or []):
            raise row.error(f"{at}.chosen_completion", f"index {chosen} is out of range")
    alternatives = []
    for i, item in enumerate(completions or []):
        path = f"{at}.completions[{i}]"
        if not isinstance(item, dict):
            raise row.error(path, f"expected an object, got {json_type(item)}")
        extra = {k: v for k, v in item.items() if k not in ("text", "rating", "flagged")}
        alternatives.append(
            ParsedAlternative(
                text=row.string(item, "text", path),
                position=i,
                rating=row.rating(item.get("rating"), f"{path}.rating"),
                flagged=row.boolean(item, "flagged", path, optional=True),
                is_chosen=i == chosen,
                metadata=extra,
            )
        )
    human = row.get(raw, "human_completion", at, default=None)
    if human is not None:
        alternatives.append(_human(row, human, f"{at}.human_completion", len(alternatives)))
    return alternatives


def _human(row: Row, human: Any, path: str, position: int) -> ParsedAlternative:
    if isinstance(human, str):
        return ParsedAlternative(text=human, position=position, is_human=True)
    if not isinstance(human, dict):
        raise row.error(path, f"expected an object, a string or null, got {json_type(human)}")
    rating = human.get("rating")
    if rating is None:  # another public copy of PRM800K carries `corrected_rating`
        rating = human.get("corrected_rating")
    extra = {k: v for k, v in human.items() if k not in ("text", "rating", "flagged")}
    return ParsedAlternative(
        text=row.string(human, "text", path),
        position=position,
        rating=row.rating(rating, f"{path}.rating"),
        flagged=row.boolean(human, "flagged", path, optional=True),
        is_human=True,
        metadata=extra,
    )


def _phase1_step(alternatives: list[ParsedAlternative]) -> ParsedStep | None:
    """The trajectory step of a phase-1 position, or None when the trajectory ends here."""
    chosen = next((a for a in alternatives if a.is_chosen), None)
    human = next((a for a in alternatives if a.is_human), None)
    picked = chosen or human
    if picked is None:
        return None
    if picked is human:
        human.is_chosen = True
    via = "human" if picked is human else "completion"
    return ParsedStep(
        text=picked.text.strip(),
        label=picked.rating,
        alternatives=alternatives,
        metadata={"via": via},
    )


def _phase2_step(text: str, alternatives: list[ParsedAlternative]) -> ParsedStep:
    """Phase 2: the step is the pre-generated one; its rating is that of the alternative
    holding the pre-generated text (the chosen one, else the first with the same text)."""
    match = next((a for a in alternatives if a.is_chosen), None)
    match = match or next((a for a in alternatives if a.text == text), None)
    if match is not None and not match.is_human:
        match.metadata["pre_generated"] = True
    return ParsedStep(
        text=text.strip(),
        label=match.rating if match else None,
        alternatives=alternatives,
        metadata={"via": "pre_generated"},
    )


def _final_answer(steps: list[ParsedStep]) -> str:
    if steps and _ANSWER_MARK in steps[-1].text:
        return steps[-1].text.rsplit(_ANSWER_MARK, 1)[1].strip()
    return ""


def _timestamp(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    question = row.mapping(data, "question")
    label = row.mapping(data, "label")
    raw_steps = row.array(label, "steps", "label")
    text = row.string(question, "problem", "question")
    pre = question.get("pre_generated_steps")
    if pre is not None:
        pre = row.strings(question, "pre_generated_steps", "question")
        if len(raw_steps) > len(pre):
            raise row.error(
                "label.steps",
                f"{len(raw_steps)} rated steps but only {len(pre)} pre-generated steps",
            )
    finish = row.string(label, "finish_reason", "label", optional=True)
    if finish and finish not in FINISH_REASONS:
        raise row.error("label.finish_reason", f"unknown finish reason {finish!r}")

    steps: list[ParsedStep] = []
    trailing: list[dict[str, Any]] = []
    for k, raw in enumerate(raw_steps):
        at = f"label.steps[{k}]"
        if not isinstance(raw, dict):
            raise row.error(at, f"expected an object, got {json_type(raw)}")
        alternatives = _alternatives(row, raw, at)
        step = _phase2_step(pre[k], alternatives) if pre is not None else _phase1_step(alternatives)
        if step is None:
            trailing.append(raw)
        elif trailing:
            raise row.error(at, "an earlier step has no chosen or human completion")
        else:
            steps.append(step)
    if pre is not None:
        steps.extend(
            ParsedStep(text=t.strip(), metadata={"via": "pre_generated"})
            for t in pre[len(raw_steps) :]
        )

    labeler = row.string(data, "labeler", optional=True)
    timestamp = row.string(data, "timestamp", optional=True)
    meta = {
        key: data.get(key)
        for key in (
            "labeler",
            "timestamp",
            "generation",
            "is_quality_control_question",
            "is_initial_screening_question",
        )
    }
    meta.update(
        phase=2 if pre is not None else 1,
        finish_reason=finish,
        total_time=label.get("total_time"),
        labeled_steps=len(raw_steps) - len(trailing),
        trailing_steps=trailing,
    )
    for key in ("pre_generated_answer", "pre_generated_verifier_score"):
        if key in question:
            meta[key] = question[key]
    total_time = label.get("total_time")
    external_id = (
        f"prm800k:{labeler}:{timestamp}"
        if labeler and timestamp
        else "prm800k:" + content_id(json.dumps(data, sort_keys=True))
    )
    solution = ParsedSolution(
        external_id=external_id,
        steps=steps,
        generator=GENERATOR,
        final_answer=str(question.get("pre_generated_answer") or _final_answer(steps)),
        source="prm800k",
        metadata={"prm800k": meta},
        label_agent=f"prm800k:{labeler}" if labeler else "prm800k",
        label_annotator=labeler or "prm800k",
        finish_reason=finish,
        time_spent_ms=total_time if isinstance(total_time, int) and total_time >= 0 else 0,
        labeled_at=_timestamp(timestamp),
    )
    problem = ParsedProblem(
        text=text,
        external_id=problem_id(text),
        answer=row.string(question, "ground_truth_answer", "question", optional=True),
        reference_solution=row.string(question, "ground_truth_solution", "question", optional=True),
        source="prm800k",
    )
    return ParsedRow(line=row.line, problem=problem, solutions=[solution])
