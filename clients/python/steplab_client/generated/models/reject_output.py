from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RejectOutput")


@_attrs_define
class RejectOutput:
    """
    Attributes:
        rejected_id (int):
        rework_id (int):
        annotator_id (int):
    """

    rejected_id: int
    rework_id: int
    annotator_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rejected_id = self.rejected_id

        rework_id = self.rework_id

        annotator_id = self.annotator_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rejected_id": rejected_id,
                "rework_id": rework_id,
                "annotator_id": annotator_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        rejected_id = d.pop("rejected_id")

        rework_id = d.pop("rework_id")

        annotator_id = d.pop("annotator_id")

        reject_output = cls(
            rejected_id=rejected_id,
            rework_id=rework_id,
            annotator_id=annotator_id,
        )

        reject_output.additional_properties = d
        return reject_output

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
