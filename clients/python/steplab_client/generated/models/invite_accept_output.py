from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.invite_accept_output_user import InviteAcceptOutputUser


T = TypeVar("T", bound="InviteAcceptOutput")


@_attrs_define
class InviteAcceptOutput:
    """
    Attributes:
        user (InviteAcceptOutputUser):
        project_id (int):
    """

    user: InviteAcceptOutputUser
    project_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        user = self.user.to_dict()

        project_id = self.project_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user": user,
                "project_id": project_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.invite_accept_output_user import InviteAcceptOutputUser

        d = dict(src_dict)
        user = InviteAcceptOutputUser.from_dict(d.pop("user"))

        project_id = d.pop("project_id")

        invite_accept_output = cls(
            user=user,
            project_id=project_id,
        )

        invite_accept_output.additional_properties = d
        return invite_accept_output

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
