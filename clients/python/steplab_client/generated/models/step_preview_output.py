from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.preview_step_output import PreviewStepOutput


T = TypeVar("T", bound="StepPreviewOutput")


@_attrs_define
class StepPreviewOutput:
    """
    Attributes:
        step_split (str): The rule used (the project's when not given).
        step_split_regex (str):
        step_split_tag (str):
        count (int): How many steps the text makes.
        thinking (int): How many of them are reasoning steps.
        steps (list[PreviewStepOutput]): The first 200 steps.
    """

    step_split: str
    step_split_regex: str
    step_split_tag: str
    count: int
    thinking: int
    steps: list[PreviewStepOutput]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        step_split = self.step_split

        step_split_regex = self.step_split_regex

        step_split_tag = self.step_split_tag

        count = self.count

        thinking = self.thinking

        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "step_split": step_split,
                "step_split_regex": step_split_regex,
                "step_split_tag": step_split_tag,
                "count": count,
                "thinking": thinking,
                "steps": steps,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.preview_step_output import PreviewStepOutput

        d = dict(src_dict)
        step_split = d.pop("step_split")

        step_split_regex = d.pop("step_split_regex")

        step_split_tag = d.pop("step_split_tag")

        count = d.pop("count")

        thinking = d.pop("thinking")

        steps = []
        _steps = d.pop("steps")
        for steps_item_data in _steps:
            steps_item = PreviewStepOutput.from_dict(steps_item_data)

            steps.append(steps_item)

        step_preview_output = cls(
            step_split=step_split,
            step_split_regex=step_split_regex,
            step_split_tag=step_split_tag,
            count=count,
            thinking=thinking,
            steps=steps,
        )

        step_preview_output.additional_properties = d
        return step_preview_output

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
