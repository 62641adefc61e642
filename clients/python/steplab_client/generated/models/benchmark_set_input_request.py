from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="BenchmarkSetInputRequest")


@_attrs_define
class BenchmarkSetInputRequest:
    """Refuses keys it does not know, instead of silently dropping an option.

    Attributes:
        file (str | Unset):
        hub (str | Unset):
        config (str | Unset):
        split (str | Unset):
    """

    file: str | Unset = UNSET
    hub: str | Unset = UNSET
    config: str | Unset = UNSET
    split: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file = self.file

        hub = self.hub

        config = self.config

        split = self.split

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if file is not UNSET:
            field_dict["file"] = file
        if hub is not UNSET:
            field_dict["hub"] = hub
        if config is not UNSET:
            field_dict["config"] = config
        if split is not UNSET:
            field_dict["split"] = split

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        file = d.pop("file", UNSET)

        hub = d.pop("hub", UNSET)

        config = d.pop("config", UNSET)

        split = d.pop("split", UNSET)

        benchmark_set_input_request = cls(
            file=file,
            hub=hub,
            config=config,
            split=split,
        )

        benchmark_set_input_request.additional_properties = d
        return benchmark_set_input_request

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
