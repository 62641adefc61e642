from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReviewProject")


@_attrs_define
class ReviewProject:
    """
    Attributes:
        id (int):
        name (str):
        domain (str):
        rating_values (list[int]):
        first_error_mode (bool):
    """

    id: int
    name: str
    domain: str
    rating_values: list[int]
    first_error_mode: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        domain = self.domain

        rating_values = self.rating_values

        first_error_mode = self.first_error_mode

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "domain": domain,
                "rating_values": rating_values,
                "first_error_mode": first_error_mode,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        domain = d.pop("domain")

        rating_values = cast(list[int], d.pop("rating_values"))

        first_error_mode = d.pop("first_error_mode")

        review_project = cls(
            id=id,
            name=name,
            domain=domain,
            rating_values=rating_values,
            first_error_mode=first_error_mode,
        )

        review_project.additional_properties = d
        return review_project

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
