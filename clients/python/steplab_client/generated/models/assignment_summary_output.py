from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AssignmentSummaryOutput")


@_attrs_define
class AssignmentSummaryOutput:
    """
    Attributes:
        user_id (int):
        username (str):
        assigned (int):
        submitted (int):
    """

    user_id: int
    username: str
    assigned: int
    submitted: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        user_id = self.user_id

        username = self.username

        assigned = self.assigned

        submitted = self.submitted

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user_id": user_id,
                "username": username,
                "assigned": assigned,
                "submitted": submitted,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_id = d.pop("user_id")

        username = d.pop("username")

        assigned = d.pop("assigned")

        submitted = d.pop("submitted")

        assignment_summary_output = cls(
            user_id=user_id,
            username=username,
            assigned=assigned,
            submitted=submitted,
        )

        assignment_summary_output.additional_properties = d
        return assignment_summary_output

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
