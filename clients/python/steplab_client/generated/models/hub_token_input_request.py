from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

T = TypeVar("T", bound="HubTokenInputRequest")


@_attrs_define
class HubTokenInputRequest:
    """
    Attributes:
        token (str): A Hugging Face access token (hf_…): write access for pushes.
        check (bool | Unset): Ask the Hub's whoami first (refused: 400, nothing saved); false saves it unchecked (a Hub
            that cannot be reached from the server). Default: True.
    """

    token: str
    check: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        check = self.check

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "token": token,
            }
        )
        if check is not UNSET:
            field_dict["check"] = check

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("token", (None, str(self.token).encode(), "text/plain")))

        if not isinstance(self.check, Unset):
            files.append(("check", (None, str(self.check).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        token = d.pop("token")

        check = d.pop("check", UNSET)

        hub_token_input_request = cls(
            token=token,
            check=check,
        )

        hub_token_input_request.additional_properties = d
        return hub_token_input_request

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
