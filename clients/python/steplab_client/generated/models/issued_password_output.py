from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.member_output import MemberOutput


T = TypeVar("T", bound="IssuedPasswordOutput")


@_attrs_define
class IssuedPasswordOutput:
    """
    Attributes:
        member (MemberOutput):
        temporary_password (str): Shown only in this reply.
    """

    member: MemberOutput
    temporary_password: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        member = self.member.to_dict()

        temporary_password = self.temporary_password

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "member": member,
                "temporary_password": temporary_password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.member_output import MemberOutput

        d = dict(src_dict)
        member = MemberOutput.from_dict(d.pop("member"))

        temporary_password = d.pop("temporary_password")

        issued_password_output = cls(
            member=member,
            temporary_password=temporary_password,
        )

        issued_password_output.additional_properties = d
        return issued_password_output

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
