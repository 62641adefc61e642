from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.domain_enum import DomainEnum
from ..models.label_scale_enum import LabelScaleEnum
from ..models.step_split_enum import StepSplitEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProjectInputRequest")


@_attrs_define
class ProjectInputRequest:
    """
    Attributes:
        name (str):
        description (str | Unset):
        domain (DomainEnum | Unset): * `math` - Math
            * `code` - Code
            * `agent` - Agent trajectories
            * `multimodal` - Multimodal (images)
            * `text` - Text tasks (QA, translation)
            * `graph` - Graph reasoning
            * `embodied` - Robotics / embodied tasks
            * `evidence` - Evidence-cited (documents, tables)
            * `mixed` - Many domains (each problem names its own)
        guidelines (str | Unset):
        label_scale (LabelScaleEnum | Unset): * `prm800k` - PRM800K: wrong (−1), neutral (0), correct (+1)
            * `binary` - Binary: wrong (−1), correct (+1)
        first_error_mode (bool | Unset):
        overlap (int | Unset):
        lock_ttl_seconds (int | Unset):
        show_suggestions (bool | Unset):
        allow_resegment (bool | Unset):
        auto_resolve (bool | Unset):
        gold_rate (float | Unset):
        screening_size (int | Unset):
        screening_pass_rate (float | Unset):
        step_split (StepSplitEnum | Unset): * `line` - One step per line
            * `paragraph` - One step per blank-line paragraph
            * `step_marker` - "Step k:" markers
            * `regex` - Split on a regular expression
            * `sentence` - One step per sentence
            * `step_tags` - A model's step separator tags
        step_split_regex (str | Unset):
        step_split_tag (str | Unset): The step_tags rule's tag: <extra_0> (Qwen PRM), ки (Math-Shepherd), <step>, or any
            literal.
    """

    name: str
    description: str | Unset = UNSET
    domain: DomainEnum | Unset = UNSET
    guidelines: str | Unset = UNSET
    label_scale: LabelScaleEnum | Unset = UNSET
    first_error_mode: bool | Unset = UNSET
    overlap: int | Unset = UNSET
    lock_ttl_seconds: int | Unset = UNSET
    show_suggestions: bool | Unset = UNSET
    allow_resegment: bool | Unset = UNSET
    auto_resolve: bool | Unset = UNSET
    gold_rate: float | Unset = UNSET
    screening_size: int | Unset = UNSET
    screening_pass_rate: float | Unset = UNSET
    step_split: StepSplitEnum | Unset = UNSET
    step_split_regex: str | Unset = UNSET
    step_split_tag: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        description = self.description

        domain: str | Unset = UNSET
        if not isinstance(self.domain, Unset):
            domain = self.domain.value

        guidelines = self.guidelines

        label_scale: str | Unset = UNSET
        if not isinstance(self.label_scale, Unset):
            label_scale = self.label_scale.value

        first_error_mode = self.first_error_mode

        overlap = self.overlap

        lock_ttl_seconds = self.lock_ttl_seconds

        show_suggestions = self.show_suggestions

        allow_resegment = self.allow_resegment

        auto_resolve = self.auto_resolve

        gold_rate = self.gold_rate

        screening_size = self.screening_size

        screening_pass_rate = self.screening_pass_rate

        step_split: str | Unset = UNSET
        if not isinstance(self.step_split, Unset):
            step_split = self.step_split.value

        step_split_regex = self.step_split_regex

        step_split_tag = self.step_split_tag

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if domain is not UNSET:
            field_dict["domain"] = domain
        if guidelines is not UNSET:
            field_dict["guidelines"] = guidelines
        if label_scale is not UNSET:
            field_dict["label_scale"] = label_scale
        if first_error_mode is not UNSET:
            field_dict["first_error_mode"] = first_error_mode
        if overlap is not UNSET:
            field_dict["overlap"] = overlap
        if lock_ttl_seconds is not UNSET:
            field_dict["lock_ttl_seconds"] = lock_ttl_seconds
        if show_suggestions is not UNSET:
            field_dict["show_suggestions"] = show_suggestions
        if allow_resegment is not UNSET:
            field_dict["allow_resegment"] = allow_resegment
        if auto_resolve is not UNSET:
            field_dict["auto_resolve"] = auto_resolve
        if gold_rate is not UNSET:
            field_dict["gold_rate"] = gold_rate
        if screening_size is not UNSET:
            field_dict["screening_size"] = screening_size
        if screening_pass_rate is not UNSET:
            field_dict["screening_pass_rate"] = screening_pass_rate
        if step_split is not UNSET:
            field_dict["step_split"] = step_split
        if step_split_regex is not UNSET:
            field_dict["step_split_regex"] = step_split_regex
        if step_split_tag is not UNSET:
            field_dict["step_split_tag"] = step_split_tag

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("name", (None, str(self.name).encode(), "text/plain")))

        if not isinstance(self.description, Unset):
            files.append(("description", (None, str(self.description).encode(), "text/plain")))

        if not isinstance(self.domain, Unset):
            files.append(("domain", (None, str(self.domain.value).encode(), "text/plain")))

        if not isinstance(self.guidelines, Unset):
            files.append(("guidelines", (None, str(self.guidelines).encode(), "text/plain")))

        if not isinstance(self.label_scale, Unset):
            files.append(
                ("label_scale", (None, str(self.label_scale.value).encode(), "text/plain"))
            )

        if not isinstance(self.first_error_mode, Unset):
            files.append(
                ("first_error_mode", (None, str(self.first_error_mode).encode(), "text/plain"))
            )

        if not isinstance(self.overlap, Unset):
            files.append(("overlap", (None, str(self.overlap).encode(), "text/plain")))

        if not isinstance(self.lock_ttl_seconds, Unset):
            files.append(
                ("lock_ttl_seconds", (None, str(self.lock_ttl_seconds).encode(), "text/plain"))
            )

        if not isinstance(self.show_suggestions, Unset):
            files.append(
                ("show_suggestions", (None, str(self.show_suggestions).encode(), "text/plain"))
            )

        if not isinstance(self.allow_resegment, Unset):
            files.append(
                ("allow_resegment", (None, str(self.allow_resegment).encode(), "text/plain"))
            )

        if not isinstance(self.auto_resolve, Unset):
            files.append(("auto_resolve", (None, str(self.auto_resolve).encode(), "text/plain")))

        if not isinstance(self.gold_rate, Unset):
            files.append(("gold_rate", (None, str(self.gold_rate).encode(), "text/plain")))

        if not isinstance(self.screening_size, Unset):
            files.append(
                ("screening_size", (None, str(self.screening_size).encode(), "text/plain"))
            )

        if not isinstance(self.screening_pass_rate, Unset):
            files.append(
                (
                    "screening_pass_rate",
                    (None, str(self.screening_pass_rate).encode(), "text/plain"),
                )
            )

        if not isinstance(self.step_split, Unset):
            files.append(("step_split", (None, str(self.step_split.value).encode(), "text/plain")))

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
        name = d.pop("name")

        description = d.pop("description", UNSET)

        _domain = d.pop("domain", UNSET)
        domain: DomainEnum | Unset
        if isinstance(_domain, Unset):
            domain = UNSET
        else:
            domain = DomainEnum(_domain)

        guidelines = d.pop("guidelines", UNSET)

        _label_scale = d.pop("label_scale", UNSET)
        label_scale: LabelScaleEnum | Unset
        if isinstance(_label_scale, Unset):
            label_scale = UNSET
        else:
            label_scale = LabelScaleEnum(_label_scale)

        first_error_mode = d.pop("first_error_mode", UNSET)

        overlap = d.pop("overlap", UNSET)

        lock_ttl_seconds = d.pop("lock_ttl_seconds", UNSET)

        show_suggestions = d.pop("show_suggestions", UNSET)

        allow_resegment = d.pop("allow_resegment", UNSET)

        auto_resolve = d.pop("auto_resolve", UNSET)

        gold_rate = d.pop("gold_rate", UNSET)

        screening_size = d.pop("screening_size", UNSET)

        screening_pass_rate = d.pop("screening_pass_rate", UNSET)

        _step_split = d.pop("step_split", UNSET)
        step_split: StepSplitEnum | Unset
        if isinstance(_step_split, Unset):
            step_split = UNSET
        else:
            step_split = StepSplitEnum(_step_split)

        step_split_regex = d.pop("step_split_regex", UNSET)

        step_split_tag = d.pop("step_split_tag", UNSET)

        project_input_request = cls(
            name=name,
            description=description,
            domain=domain,
            guidelines=guidelines,
            label_scale=label_scale,
            first_error_mode=first_error_mode,
            overlap=overlap,
            lock_ttl_seconds=lock_ttl_seconds,
            show_suggestions=show_suggestions,
            allow_resegment=allow_resegment,
            auto_resolve=auto_resolve,
            gold_rate=gold_rate,
            screening_size=screening_size,
            screening_pass_rate=screening_pass_rate,
            step_split=step_split,
            step_split_regex=step_split_regex,
            step_split_tag=step_split_tag,
        )

        project_input_request.additional_properties = d
        return project_input_request

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
