from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MetricsCoverage")


@_attrs_define
class MetricsCoverage:
    """
    Attributes:
        solutions (int):
        none (int):
        one (int):
        two_plus (int):
    """

    solutions: int
    none: int
    one: int
    two_plus: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        solutions = self.solutions

        none = self.none

        one = self.one

        two_plus = self.two_plus

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "solutions": solutions,
                "none": none,
                "one": one,
                "two_plus": two_plus,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        solutions = d.pop("solutions")

        none = d.pop("none")

        one = d.pop("one")

        two_plus = d.pop("two_plus")

        metrics_coverage = cls(
            solutions=solutions,
            none=none,
            one=one,
            two_plus=two_plus,
        )

        metrics_coverage.additional_properties = d
        return metrics_coverage

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
