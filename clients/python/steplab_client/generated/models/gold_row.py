from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.gold_annotator_output import GoldAnnotatorOutput


T = TypeVar("T", bound="GoldRow")


@_attrs_define
class GoldRow:
    """
    Attributes:
        solution_id (int):
        problem_text (str):
        problem_source (str):
        generator (str):
        ratings (list[int | None]):
        first_error (int | None):
        answers (int):
        step_accuracy (float | None):
        first_error_accuracy (float | None):
        annotators (list[GoldAnnotatorOutput]):
    """

    solution_id: int
    problem_text: str
    problem_source: str
    generator: str
    ratings: list[int | None]
    first_error: int | None
    answers: int
    step_accuracy: float | None
    first_error_accuracy: float | None
    annotators: list[GoldAnnotatorOutput]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        solution_id = self.solution_id

        problem_text = self.problem_text

        problem_source = self.problem_source

        generator = self.generator

        ratings = []
        for ratings_item_data in self.ratings:
            ratings_item: int | None
            ratings_item = ratings_item_data
            ratings.append(ratings_item)

        first_error: int | None
        first_error = self.first_error

        answers = self.answers

        step_accuracy: float | None
        step_accuracy = self.step_accuracy

        first_error_accuracy: float | None
        first_error_accuracy = self.first_error_accuracy

        annotators = []
        for annotators_item_data in self.annotators:
            annotators_item = annotators_item_data.to_dict()
            annotators.append(annotators_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "solution_id": solution_id,
                "problem_text": problem_text,
                "problem_source": problem_source,
                "generator": generator,
                "ratings": ratings,
                "first_error": first_error,
                "answers": answers,
                "step_accuracy": step_accuracy,
                "first_error_accuracy": first_error_accuracy,
                "annotators": annotators,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.gold_annotator_output import GoldAnnotatorOutput

        d = dict(src_dict)
        solution_id = d.pop("solution_id")

        problem_text = d.pop("problem_text")

        problem_source = d.pop("problem_source")

        generator = d.pop("generator")

        ratings = []
        _ratings = d.pop("ratings")
        for ratings_item_data in _ratings:

            def _parse_ratings_item(data: object) -> int | None:
                if data is None:
                    return data
                return cast(int | None, data)

            ratings_item = _parse_ratings_item(ratings_item_data)

            ratings.append(ratings_item)

        def _parse_first_error(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        first_error = _parse_first_error(d.pop("first_error"))

        answers = d.pop("answers")

        def _parse_step_accuracy(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        step_accuracy = _parse_step_accuracy(d.pop("step_accuracy"))

        def _parse_first_error_accuracy(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        first_error_accuracy = _parse_first_error_accuracy(d.pop("first_error_accuracy"))

        annotators = []
        _annotators = d.pop("annotators")
        for annotators_item_data in _annotators:
            annotators_item = GoldAnnotatorOutput.from_dict(annotators_item_data)

            annotators.append(annotators_item)

        gold_row = cls(
            solution_id=solution_id,
            problem_text=problem_text,
            problem_source=problem_source,
            generator=generator,
            ratings=ratings,
            first_error=first_error,
            answers=answers,
            step_accuracy=step_accuracy,
            first_error_accuracy=first_error_accuracy,
            annotators=annotators,
        )

        gold_row.additional_properties = d
        return gold_row

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
