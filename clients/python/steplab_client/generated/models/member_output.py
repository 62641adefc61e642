from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.member_output_user import MemberOutputUser


T = TypeVar("T", bound="MemberOutput")


@_attrs_define
class MemberOutput:
    """
    Attributes:
        user (MemberOutputUser):
        role (str):
        screening (str): "", "passed" or "failed"
        screening_answered (int | Unset): Gold answers that count for the screening (since a reset). Default: 0.
        temporary_password (bool | Unset): They still have the temporary password an admin made (not signed in yet).
            Default: False.
        temporary_password_reissue (bool | Unset): You may issue them a new temporary password (POST
            members/{user_id}/temporary-password/). Default: False.
    """

    user: MemberOutputUser
    role: str
    screening: str
    screening_answered: int | Unset = 0
    temporary_password: bool | Unset = False
    temporary_password_reissue: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        user = self.user.to_dict()

        role = self.role

        screening = self.screening

        screening_answered = self.screening_answered

        temporary_password = self.temporary_password

        temporary_password_reissue = self.temporary_password_reissue

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user": user,
                "role": role,
                "screening": screening,
            }
        )
        if screening_answered is not UNSET:
            field_dict["screening_answered"] = screening_answered
        if temporary_password is not UNSET:
            field_dict["temporary_password"] = temporary_password
        if temporary_password_reissue is not UNSET:
            field_dict["temporary_password_reissue"] = temporary_password_reissue

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.member_output_user import MemberOutputUser

        d = dict(src_dict)
        user = MemberOutputUser.from_dict(d.pop("user"))

        role = d.pop("role")

        screening = d.pop("screening")

        screening_answered = d.pop("screening_answered", UNSET)

        temporary_password = d.pop("temporary_password", UNSET)

        temporary_password_reissue = d.pop("temporary_password_reissue", UNSET)

        member_output = cls(
            user=user,
            role=role,
            screening=screening,
            screening_answered=screening_answered,
            temporary_password=temporary_password,
            temporary_password_reissue=temporary_password_reissue,
        )

        member_output.additional_properties = d
        return member_output

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
