from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PredictionsResultOutput")


@_attrs_define
class PredictionsResultOutput:
    """
    Attributes:
        solutions (int): Solutions given a prediction.
        steps_written (int): Step labels stored, new and updated.
        steps_created (int):
        steps_updated (int): Labels that were there and changed.
        steps_removed (int): Old labels of a source on steps its new prediction of a solution leaves out.
        sources (list[str]):
    """

    solutions: int
    steps_written: int
    steps_created: int
    steps_updated: int
    steps_removed: int
    sources: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        solutions = self.solutions

        steps_written = self.steps_written

        steps_created = self.steps_created

        steps_updated = self.steps_updated

        steps_removed = self.steps_removed

        sources = self.sources

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "solutions": solutions,
                "steps_written": steps_written,
                "steps_created": steps_created,
                "steps_updated": steps_updated,
                "steps_removed": steps_removed,
                "sources": sources,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        solutions = d.pop("solutions")

        steps_written = d.pop("steps_written")

        steps_created = d.pop("steps_created")

        steps_updated = d.pop("steps_updated")

        steps_removed = d.pop("steps_removed")

        sources = cast(list[str], d.pop("sources"))

        predictions_result_output = cls(
            solutions=solutions,
            steps_written=steps_written,
            steps_created=steps_created,
            steps_updated=steps_updated,
            steps_removed=steps_removed,
            sources=sources,
        )

        predictions_result_output.additional_properties = d
        return predictions_result_output

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
