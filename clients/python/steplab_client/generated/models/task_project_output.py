from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TaskProjectOutput")


@_attrs_define
class TaskProjectOutput:
    """
    Attributes:
        id (int):
        name (str):
        guidelines (str):
        domain (str):
        first_error_mode (bool):
        rating_values (list[int]):
        show_suggestions (bool):
        allow_resegment (bool):
    """

    id: int
    name: str
    guidelines: str
    domain: str
    first_error_mode: bool
    rating_values: list[int]
    show_suggestions: bool
    allow_resegment: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        guidelines = self.guidelines

        domain = self.domain

        first_error_mode = self.first_error_mode

        rating_values = self.rating_values

        show_suggestions = self.show_suggestions

        allow_resegment = self.allow_resegment

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "guidelines": guidelines,
                "domain": domain,
                "first_error_mode": first_error_mode,
                "rating_values": rating_values,
                "show_suggestions": show_suggestions,
                "allow_resegment": allow_resegment,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        guidelines = d.pop("guidelines")

        domain = d.pop("domain")

        first_error_mode = d.pop("first_error_mode")

        rating_values = cast(list[int], d.pop("rating_values"))

        show_suggestions = d.pop("show_suggestions")

        allow_resegment = d.pop("allow_resegment")

        task_project_output = cls(
            id=id,
            name=name,
            guidelines=guidelines,
            domain=domain,
            first_error_mode=first_error_mode,
            rating_values=rating_values,
            show_suggestions=show_suggestions,
            allow_resegment=allow_resegment,
        )

        task_project_output.additional_properties = d
        return task_project_output

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
