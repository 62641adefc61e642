from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.mode_enum import ModeEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="SplitPolicyInputRequest")


@_attrs_define
class SplitPolicyInputRequest:
    """Refuses keys it does not know, instead of silently dropping an option.

    Attributes:
        mode (ModeEnum | Unset): * `hash` - hash
            * `none` - none
        train (float | Unset):
        validation (float | Unset):
        test (float | Unset):
        seed (str | Unset):
    """

    mode: ModeEnum | Unset = UNSET
    train: float | Unset = UNSET
    validation: float | Unset = UNSET
    test: float | Unset = UNSET
    seed: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        train = self.train

        validation = self.validation

        test = self.test

        seed = self.seed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if mode is not UNSET:
            field_dict["mode"] = mode
        if train is not UNSET:
            field_dict["train"] = train
        if validation is not UNSET:
            field_dict["validation"] = validation
        if test is not UNSET:
            field_dict["test"] = test
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _mode = d.pop("mode", UNSET)
        mode: ModeEnum | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = ModeEnum(_mode)

        train = d.pop("train", UNSET)

        validation = d.pop("validation", UNSET)

        test = d.pop("test", UNSET)

        seed = d.pop("seed", UNSET)

        split_policy_input_request = cls(
            mode=mode,
            train=train,
            validation=validation,
            test=test,
            seed=seed,
        )

        split_policy_input_request.additional_properties = d
        return split_policy_input_request

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
