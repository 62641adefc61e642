from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="UserOutput")


@_attrs_define
class UserOutput:
    """
    Attributes:
        authenticated (bool): false: nobody is signed in (the other fields are empty).
        id (int | None):
        username (str):
        is_staff (bool):
        must_change_password (bool): Signed in with a temporary password: only a password change may be written.
    """

    authenticated: bool
    id: int | None
    username: str
    is_staff: bool
    must_change_password: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        authenticated = self.authenticated

        id: int | None
        id = self.id

        username = self.username

        is_staff = self.is_staff

        must_change_password = self.must_change_password

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "authenticated": authenticated,
                "id": id,
                "username": username,
                "is_staff": is_staff,
                "must_change_password": must_change_password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        authenticated = d.pop("authenticated")

        def _parse_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        id = _parse_id(d.pop("id"))

        username = d.pop("username")

        is_staff = d.pop("is_staff")

        must_change_password = d.pop("must_change_password")

        user_output = cls(
            authenticated=authenticated,
            id=id,
            username=username,
            is_staff=is_staff,
            must_change_password=must_change_password,
        )

        user_output.additional_properties = d
        return user_output

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
