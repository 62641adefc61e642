from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MachineSourceOutput")


@_attrs_define
class MachineSourceOutput:
    """
    Attributes:
        name (str): What suggestions carry and auto_sources names.
        label (str):
        plugin (bool): An installed engine plug-in's source.
        default (bool): In an export's default auto_sources (filters.auto_sources left out).
    """

    name: str
    label: str
    plugin: bool
    default: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        label = self.label

        plugin = self.plugin

        default = self.default

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "label": label,
                "plugin": plugin,
                "default": default,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        label = d.pop("label")

        plugin = d.pop("plugin")

        default = d.pop("default")

        machine_source_output = cls(
            name=name,
            label=label,
            plugin=plugin,
            default=default,
        )

        machine_source_output.additional_properties = d
        return machine_source_output

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
