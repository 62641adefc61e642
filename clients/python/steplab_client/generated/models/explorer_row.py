from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ExplorerRow")


@_attrs_define
class ExplorerRow:
    """
    Attributes:
        id (int):
        problem_id (int):
        problem_text (str): The problem's first 300 characters.
        problem_source (str):
        generator (str):
        final_answer (str):
        answer_correct (bool | None):
        steps_count (int):
        submitted_count (int):
        extra_overlap (int): Labels wanted beyond the project's overlap for this solution (each requeue of it when
            complete adds one).
        is_gold (bool):
        queue_open (bool):
        label_state (str): unlabeled, in_progress, labeled or reviewed.
        reasons (list[str]):
        verdict (str): error, no_error, or blank: no machine suggestion.
        import_job_id (int | None):
        created_at (datetime.datetime):
    """

    id: int
    problem_id: int
    problem_text: str
    problem_source: str
    generator: str
    final_answer: str
    answer_correct: bool | None
    steps_count: int
    submitted_count: int
    extra_overlap: int
    is_gold: bool
    queue_open: bool
    label_state: str
    reasons: list[str]
    verdict: str
    import_job_id: int | None
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        problem_id = self.problem_id

        problem_text = self.problem_text

        problem_source = self.problem_source

        generator = self.generator

        final_answer = self.final_answer

        answer_correct: bool | None
        answer_correct = self.answer_correct

        steps_count = self.steps_count

        submitted_count = self.submitted_count

        extra_overlap = self.extra_overlap

        is_gold = self.is_gold

        queue_open = self.queue_open

        label_state = self.label_state

        reasons = self.reasons

        verdict = self.verdict

        import_job_id: int | None
        import_job_id = self.import_job_id

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "problem_id": problem_id,
                "problem_text": problem_text,
                "problem_source": problem_source,
                "generator": generator,
                "final_answer": final_answer,
                "answer_correct": answer_correct,
                "steps_count": steps_count,
                "submitted_count": submitted_count,
                "extra_overlap": extra_overlap,
                "is_gold": is_gold,
                "queue_open": queue_open,
                "label_state": label_state,
                "reasons": reasons,
                "verdict": verdict,
                "import_job_id": import_job_id,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        problem_id = d.pop("problem_id")

        problem_text = d.pop("problem_text")

        problem_source = d.pop("problem_source")

        generator = d.pop("generator")

        final_answer = d.pop("final_answer")

        def _parse_answer_correct(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        answer_correct = _parse_answer_correct(d.pop("answer_correct"))

        steps_count = d.pop("steps_count")

        submitted_count = d.pop("submitted_count")

        extra_overlap = d.pop("extra_overlap")

        is_gold = d.pop("is_gold")

        queue_open = d.pop("queue_open")

        label_state = d.pop("label_state")

        reasons = cast(list[str], d.pop("reasons"))

        verdict = d.pop("verdict")

        def _parse_import_job_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        import_job_id = _parse_import_job_id(d.pop("import_job_id"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        explorer_row = cls(
            id=id,
            problem_id=problem_id,
            problem_text=problem_text,
            problem_source=problem_source,
            generator=generator,
            final_answer=final_answer,
            answer_correct=answer_correct,
            steps_count=steps_count,
            submitted_count=submitted_count,
            extra_overlap=extra_overlap,
            is_gold=is_gold,
            queue_open=queue_open,
            label_state=label_state,
            reasons=reasons,
            verdict=verdict,
            import_job_id=import_job_id,
            created_at=created_at,
        )

        explorer_row.additional_properties = d
        return explorer_row

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
