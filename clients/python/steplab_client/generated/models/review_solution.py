from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReviewSolution")


@_attrs_define
class ReviewSolution:
    """
    Attributes:
        id (int):
        generator (str):
        final_answer (str):
        answer_correct (bool | None):
        is_gold (bool):
        source (str):
    """

    id: int
    generator: str
    final_answer: str
    answer_correct: bool | None
    is_gold: bool
    source: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        generator = self.generator

        final_answer = self.final_answer

        answer_correct: bool | None
        answer_correct = self.answer_correct

        is_gold = self.is_gold

        source = self.source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "generator": generator,
                "final_answer": final_answer,
                "answer_correct": answer_correct,
                "is_gold": is_gold,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        generator = d.pop("generator")

        final_answer = d.pop("final_answer")

        def _parse_answer_correct(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        answer_correct = _parse_answer_correct(d.pop("answer_correct"))

        is_gold = d.pop("is_gold")

        source = d.pop("source")

        review_solution = cls(
            id=id,
            generator=generator,
            final_answer=final_answer,
            answer_correct=answer_correct,
            is_gold=is_gold,
            source=source,
        )

        review_solution.additional_properties = d
        return review_solution

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
