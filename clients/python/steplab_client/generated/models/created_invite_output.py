from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.invite_output import InviteOutput


T = TypeVar("T", bound="CreatedInviteOutput")


@_attrs_define
class CreatedInviteOutput:
    """
    Attributes:
        invite (InviteOutput):
        url (str): The link; shown only in this reply.
    """

    invite: InviteOutput
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        invite = self.invite.to_dict()

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "invite": invite,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.invite_output import InviteOutput

        d = dict(src_dict)
        invite = InviteOutput.from_dict(d.pop("invite"))

        url = d.pop("url")

        created_invite_output = cls(
            invite=invite,
            url=url,
        )

        created_invite_output.additional_properties = d
        return created_invite_output

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
