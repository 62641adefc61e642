from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

T = TypeVar("T", bound="PasswordTokenInputRequest")


@_attrs_define
class PasswordTokenInputRequest:
    """
    Attributes:
        username (str):
        password (str):
        name (str | Unset): The token's name. Default: 'API token (password login)'.
        expires_in_days (int | None | Unset): Days until it expires (default 30); null: never. Default: 30.
    """

    username: str
    password: str
    name: str | Unset = "API token (password login)"
    expires_in_days: int | None | Unset = 30
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        username = self.username

        password = self.password

        name = self.name

        expires_in_days: int | None | Unset
        if isinstance(self.expires_in_days, Unset):
            expires_in_days = UNSET
        else:
            expires_in_days = self.expires_in_days

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "username": username,
                "password": password,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if expires_in_days is not UNSET:
            field_dict["expires_in_days"] = expires_in_days

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("username", (None, str(self.username).encode(), "text/plain")))

        files.append(("password", (None, str(self.password).encode(), "text/plain")))

        if not isinstance(self.name, Unset):
            files.append(("name", (None, str(self.name).encode(), "text/plain")))

        if not isinstance(self.expires_in_days, Unset):
            if isinstance(self.expires_in_days, int):
                files.append(
                    ("expires_in_days", (None, str(self.expires_in_days).encode(), "text/plain"))
                )
            else:
                files.append(
                    ("expires_in_days", (None, str(self.expires_in_days).encode(), "text/plain"))
                )

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        username = d.pop("username")

        password = d.pop("password")

        name = d.pop("name", UNSET)

        def _parse_expires_in_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expires_in_days = _parse_expires_in_days(d.pop("expires_in_days", UNSET))

        password_token_input_request = cls(
            username=username,
            password=password,
            name=name,
            expires_in_days=expires_in_days,
        )

        password_token_input_request.additional_properties = d
        return password_token_input_request

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
