from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ExportProgressOutput")


@_attrs_define
class ExportProgressOutput:
    """
    Attributes:
        solutions_done (int):
        solutions_total (int):
        fraction (float):
    """

    solutions_done: int
    solutions_total: int
    fraction: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        solutions_done = self.solutions_done

        solutions_total = self.solutions_total

        fraction = self.fraction

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "solutions_done": solutions_done,
                "solutions_total": solutions_total,
                "fraction": fraction,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        solutions_done = d.pop("solutions_done")

        solutions_total = d.pop("solutions_total")

        fraction = d.pop("fraction")

        export_progress_output = cls(
            solutions_done=solutions_done,
            solutions_total=solutions_total,
            fraction=fraction,
        )

        export_progress_output.additional_properties = d
        return export_progress_output

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
