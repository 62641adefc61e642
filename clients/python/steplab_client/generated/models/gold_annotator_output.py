from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="GoldAnnotatorOutput")


@_attrs_define
class GoldAnnotatorOutput:
    """
    Attributes:
        annotator (str):
        steps (int): Rated steps with a gold rating.
        step_accuracy (float | None):
        first_error (int | None):
        first_error_correct (bool):
    """

    annotator: str
    steps: int
    step_accuracy: float | None
    first_error: int | None
    first_error_correct: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        annotator = self.annotator

        steps = self.steps

        step_accuracy: float | None
        step_accuracy = self.step_accuracy

        first_error: int | None
        first_error = self.first_error

        first_error_correct = self.first_error_correct

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "annotator": annotator,
                "steps": steps,
                "step_accuracy": step_accuracy,
                "first_error": first_error,
                "first_error_correct": first_error_correct,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        annotator = d.pop("annotator")

        steps = d.pop("steps")

        def _parse_step_accuracy(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        step_accuracy = _parse_step_accuracy(d.pop("step_accuracy"))

        def _parse_first_error(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        first_error = _parse_first_error(d.pop("first_error"))

        first_error_correct = d.pop("first_error_correct")

        gold_annotator_output = cls(
            annotator=annotator,
            steps=steps,
            step_accuracy=step_accuracy,
            first_error=first_error,
            first_error_correct=first_error_correct,
        )

        gold_annotator_output.additional_properties = d
        return gold_annotator_output

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
