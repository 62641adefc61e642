from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SolutionRowOutput")


@_attrs_define
class SolutionRowOutput:
    """
    Attributes:
        id (int):
        problem_text (str):
        generator (str):
        steps_count (int):
        submitted_count (int):
        answer_correct (bool | None):
    """

    id: int
    problem_text: str
    generator: str
    steps_count: int
    submitted_count: int
    answer_correct: bool | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        problem_text = self.problem_text

        generator = self.generator

        steps_count = self.steps_count

        submitted_count = self.submitted_count

        answer_correct: bool | None
        answer_correct = self.answer_correct

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "problem_text": problem_text,
                "generator": generator,
                "steps_count": steps_count,
                "submitted_count": submitted_count,
                "answer_correct": answer_correct,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        problem_text = d.pop("problem_text")

        generator = d.pop("generator")

        steps_count = d.pop("steps_count")

        submitted_count = d.pop("submitted_count")

        def _parse_answer_correct(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        answer_correct = _parse_answer_correct(d.pop("answer_correct"))

        solution_row_output = cls(
            id=id,
            problem_text=problem_text,
            generator=generator,
            steps_count=steps_count,
            submitted_count=submitted_count,
            answer_correct=answer_correct,
        )

        solution_row_output.additional_properties = d
        return solution_row_output

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
