from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.role_enum import RoleEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="InviteListInputRequest")


@_attrs_define
class InviteListInputRequest:
    """
    Attributes:
        role (RoleEnum): * `annotator` - Annotator
            * `reviewer` - Reviewer
            * `admin` - Project admin
        days (int | Unset): Days until the link expires. Default: 7.
    """

    role: RoleEnum
    days: int | Unset = 7
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        role = self.role.value

        days = self.days

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "role": role,
            }
        )
        if days is not UNSET:
            field_dict["days"] = days

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("role", (None, str(self.role.value).encode(), "text/plain")))

        if not isinstance(self.days, Unset):
            files.append(("days", (None, str(self.days).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        role = RoleEnum(d.pop("role"))

        days = d.pop("days", UNSET)

        invite_list_input_request = cls(
            role=role,
            days=days,
        )

        invite_list_input_request.additional_properties = d
        return invite_list_input_request

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
