from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.assignment_preview_new import AssignmentPreviewNew


T = TypeVar("T", bound="AssignmentPreview")


@_attrs_define
class AssignmentPreview:
    """
    Attributes:
        solutions (int):
        new (AssignmentPreviewNew):
    """

    solutions: int
    new: AssignmentPreviewNew
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        solutions = self.solutions

        new = self.new.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "solutions": solutions,
                "new": new,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.assignment_preview_new import AssignmentPreviewNew

        d = dict(src_dict)
        solutions = d.pop("solutions")

        new = AssignmentPreviewNew.from_dict(d.pop("new"))

        assignment_preview = cls(
            solutions=solutions,
            new=new,
        )

        assignment_preview.additional_properties = d
        return assignment_preview

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
