from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.engine_param_type_enum import EngineParamTypeEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="EngineParamOutput")


@_attrs_define
class EngineParamOutput:
    """
    Attributes:
        name (str):
        type_ (EngineParamTypeEnum): * `int` - int
            * `float` - float
            * `bool` - bool
            * `string` - string
            * `choice` - choice
        default (Any): A value of the field's type.
        label (str):
        help_ (str):
        minimum (float | Unset): int and float fields.
        maximum (float | Unset): int and float fields.
        max_length (int | Unset): string fields.
        choices (list[str] | Unset): choice fields.
    """

    name: str
    type_: EngineParamTypeEnum
    default: Any
    label: str
    help_: str
    minimum: float | Unset = UNSET
    maximum: float | Unset = UNSET
    max_length: int | Unset = UNSET
    choices: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_.value

        default = self.default

        label = self.label

        help_ = self.help_

        minimum = self.minimum

        maximum = self.maximum

        max_length = self.max_length

        choices: list[str] | Unset = UNSET
        if not isinstance(self.choices, Unset):
            choices = self.choices

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "type": type_,
                "default": default,
                "label": label,
                "help": help_,
            }
        )
        if minimum is not UNSET:
            field_dict["minimum"] = minimum
        if maximum is not UNSET:
            field_dict["maximum"] = maximum
        if max_length is not UNSET:
            field_dict["max_length"] = max_length
        if choices is not UNSET:
            field_dict["choices"] = choices

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        type_ = EngineParamTypeEnum(d.pop("type"))

        default = d.pop("default")

        label = d.pop("label")

        help_ = d.pop("help")

        minimum = d.pop("minimum", UNSET)

        maximum = d.pop("maximum", UNSET)

        max_length = d.pop("max_length", UNSET)

        choices = cast(list[str], d.pop("choices", UNSET))

        engine_param_output = cls(
            name=name,
            type_=type_,
            default=default,
            label=label,
            help_=help_,
            minimum=minimum,
            maximum=maximum,
            max_length=max_length,
            choices=choices,
        )

        engine_param_output.additional_properties = d
        return engine_param_output

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
