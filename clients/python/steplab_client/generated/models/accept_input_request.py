from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

T = TypeVar("T", bound="AcceptInputRequest")


@_attrs_define
class AcceptInputRequest:
    """
    Attributes:
        comment (str | Unset):  Default: ''.
        expected_resolution_id (int | None | Unset): The current resolution you saw (null: none). 409 if it changed.
    """

    comment: str | Unset = ""
    expected_resolution_id: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        comment = self.comment

        expected_resolution_id: int | None | Unset
        if isinstance(self.expected_resolution_id, Unset):
            expected_resolution_id = UNSET
        else:
            expected_resolution_id = self.expected_resolution_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if comment is not UNSET:
            field_dict["comment"] = comment
        if expected_resolution_id is not UNSET:
            field_dict["expected_resolution_id"] = expected_resolution_id

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        if not isinstance(self.comment, Unset):
            files.append(("comment", (None, str(self.comment).encode(), "text/plain")))

        if not isinstance(self.expected_resolution_id, Unset):
            if isinstance(self.expected_resolution_id, int):
                files.append(
                    (
                        "expected_resolution_id",
                        (None, str(self.expected_resolution_id).encode(), "text/plain"),
                    )
                )
            else:
                files.append(
                    (
                        "expected_resolution_id",
                        (None, str(self.expected_resolution_id).encode(), "text/plain"),
                    )
                )

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        comment = d.pop("comment", UNSET)

        def _parse_expected_resolution_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_resolution_id = _parse_expected_resolution_id(
            d.pop("expected_resolution_id", UNSET)
        )

        accept_input_request = cls(
            comment=comment,
            expected_resolution_id=expected_resolution_id,
        )

        accept_input_request.additional_properties = d
        return accept_input_request

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
