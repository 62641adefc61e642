from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.blank_enum import BlankEnum
from ..models.step_split_enum import StepSplitEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="StepPreviewInputRequest")


@_attrs_define
class StepPreviewInputRequest:
    """
    Attributes:
        text (str):
        step_split (BlankEnum | StepSplitEnum | Unset):  Default: BlankEnum.VALUE_0.
        step_split_regex (str | Unset):  Default: ''.
        step_split_tag (str | Unset):  Default: ''.
    """

    text: str
    step_split: BlankEnum | StepSplitEnum | Unset = BlankEnum.VALUE_0
    step_split_regex: str | Unset = ""
    step_split_tag: str | Unset = ""
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        step_split: str | Unset
        if isinstance(self.step_split, Unset):
            step_split = UNSET
        elif isinstance(self.step_split, StepSplitEnum):
            step_split = self.step_split.value
        else:
            step_split = self.step_split.value

        step_split_regex = self.step_split_regex

        step_split_tag = self.step_split_tag

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "text": text,
            }
        )
        if step_split is not UNSET:
            field_dict["step_split"] = step_split
        if step_split_regex is not UNSET:
            field_dict["step_split_regex"] = step_split_regex
        if step_split_tag is not UNSET:
            field_dict["step_split_tag"] = step_split_tag

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("text", (None, str(self.text).encode(), "text/plain")))

        if not isinstance(self.step_split, Unset):
            if isinstance(self.step_split, StepSplitEnum):
                files.append(
                    ("step_split", (None, str(self.step_split.value).encode(), "text/plain"))
                )
            else:
                files.append(
                    ("step_split", (None, str(self.step_split.value).encode(), "text/plain"))
                )

        if not isinstance(self.step_split_regex, Unset):
            files.append(
                ("step_split_regex", (None, str(self.step_split_regex).encode(), "text/plain"))
            )

        if not isinstance(self.step_split_tag, Unset):
            files.append(
                ("step_split_tag", (None, str(self.step_split_tag).encode(), "text/plain"))
            )

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        text = d.pop("text")

        def _parse_step_split(data: object) -> BlankEnum | StepSplitEnum | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                step_split_type_0 = StepSplitEnum(data)

                return step_split_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            step_split_type_1 = BlankEnum(data)

            return step_split_type_1

        step_split = _parse_step_split(d.pop("step_split", UNSET))

        step_split_regex = d.pop("step_split_regex", UNSET)

        step_split_tag = d.pop("step_split_tag", UNSET)

        step_preview_input_request = cls(
            text=text,
            step_split=step_split,
            step_split_regex=step_split_regex,
            step_split_tag=step_split_tag,
        )

        step_preview_input_request.additional_properties = d
        return step_preview_input_request

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
