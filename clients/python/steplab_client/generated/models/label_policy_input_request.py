from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.combine_enum import CombineEnum
from ..models.dependency_policy_enum import DependencyPolicyEnum
from ..models.neutral_enum import NeutralEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="LabelPolicyInputRequest")


@_attrs_define
class LabelPolicyInputRequest:
    """Refuses keys it does not know, instead of silently dropping an option.

    Attributes:
        neutral (NeutralEnum | Unset): * `positive` - positive
            * `negative` - negative
        truncate_after_first_error (bool | Unset):
        human_written_positive (bool | Unset):
        soft_labels (bool | Unset):
        label_sources (bool | Unset):
        combine (CombineEnum | Unset): * `majority` - majority
            * `per_annotation` - per_annotation
        dependency_policy (DependencyPolicyEnum | Unset): * `none` - none
            * `keep` - keep
            * `inherit` - inherit
        placeholder_token (str | Unset): openrlhf: the step tag after each step in `input` (OpenRLHF's
            --placeholder_token); default ки.
        reward_tokens (list[str] | Unset): openrlhf: the hard labels, the positive token then the negative one
            (OpenRLHF's --reward_tokens); default ["+", "-"].
        tokenizer (str | Unset): chat_template (required there): the tokenizer whose chat template renders each row: a
            local directory with its files, or a name in the Hugging Face cache (loaded offline).
        step_separator (str | Unset): chat_template: the token after each step (one token of the tokenizer); default
            <extra_0> (Qwen PRM).
        system_prompt (str | Unset): chat_template: a system message before the problem; none when blank.
    """

    neutral: NeutralEnum | Unset = UNSET
    truncate_after_first_error: bool | Unset = UNSET
    human_written_positive: bool | Unset = UNSET
    soft_labels: bool | Unset = UNSET
    label_sources: bool | Unset = UNSET
    combine: CombineEnum | Unset = UNSET
    dependency_policy: DependencyPolicyEnum | Unset = UNSET
    placeholder_token: str | Unset = UNSET
    reward_tokens: list[str] | Unset = UNSET
    tokenizer: str | Unset = UNSET
    step_separator: str | Unset = UNSET
    system_prompt: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        neutral: str | Unset = UNSET
        if not isinstance(self.neutral, Unset):
            neutral = self.neutral.value

        truncate_after_first_error = self.truncate_after_first_error

        human_written_positive = self.human_written_positive

        soft_labels = self.soft_labels

        label_sources = self.label_sources

        combine: str | Unset = UNSET
        if not isinstance(self.combine, Unset):
            combine = self.combine.value

        dependency_policy: str | Unset = UNSET
        if not isinstance(self.dependency_policy, Unset):
            dependency_policy = self.dependency_policy.value

        placeholder_token = self.placeholder_token

        reward_tokens: list[str] | Unset = UNSET
        if not isinstance(self.reward_tokens, Unset):
            reward_tokens = self.reward_tokens

        tokenizer = self.tokenizer

        step_separator = self.step_separator

        system_prompt = self.system_prompt

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if neutral is not UNSET:
            field_dict["neutral"] = neutral
        if truncate_after_first_error is not UNSET:
            field_dict["truncate_after_first_error"] = truncate_after_first_error
        if human_written_positive is not UNSET:
            field_dict["human_written_positive"] = human_written_positive
        if soft_labels is not UNSET:
            field_dict["soft_labels"] = soft_labels
        if label_sources is not UNSET:
            field_dict["label_sources"] = label_sources
        if combine is not UNSET:
            field_dict["combine"] = combine
        if dependency_policy is not UNSET:
            field_dict["dependency_policy"] = dependency_policy
        if placeholder_token is not UNSET:
            field_dict["placeholder_token"] = placeholder_token
        if reward_tokens is not UNSET:
            field_dict["reward_tokens"] = reward_tokens
        if tokenizer is not UNSET:
            field_dict["tokenizer"] = tokenizer
        if step_separator is not UNSET:
            field_dict["step_separator"] = step_separator
        if system_prompt is not UNSET:
            field_dict["system_prompt"] = system_prompt

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _neutral = d.pop("neutral", UNSET)
        neutral: NeutralEnum | Unset
        if isinstance(_neutral, Unset):
            neutral = UNSET
        else:
            neutral = NeutralEnum(_neutral)

        truncate_after_first_error = d.pop("truncate_after_first_error", UNSET)

        human_written_positive = d.pop("human_written_positive", UNSET)

        soft_labels = d.pop("soft_labels", UNSET)

        label_sources = d.pop("label_sources", UNSET)

        _combine = d.pop("combine", UNSET)
        combine: CombineEnum | Unset
        if isinstance(_combine, Unset):
            combine = UNSET
        else:
            combine = CombineEnum(_combine)

        _dependency_policy = d.pop("dependency_policy", UNSET)
        dependency_policy: DependencyPolicyEnum | Unset
        if isinstance(_dependency_policy, Unset):
            dependency_policy = UNSET
        else:
            dependency_policy = DependencyPolicyEnum(_dependency_policy)

        placeholder_token = d.pop("placeholder_token", UNSET)

        reward_tokens = cast(list[str], d.pop("reward_tokens", UNSET))

        tokenizer = d.pop("tokenizer", UNSET)

        step_separator = d.pop("step_separator", UNSET)

        system_prompt = d.pop("system_prompt", UNSET)

        label_policy_input_request = cls(
            neutral=neutral,
            truncate_after_first_error=truncate_after_first_error,
            human_written_positive=human_written_positive,
            soft_labels=soft_labels,
            label_sources=label_sources,
            combine=combine,
            dependency_policy=dependency_policy,
            placeholder_token=placeholder_token,
            reward_tokens=reward_tokens,
            tokenizer=tokenizer,
            step_separator=step_separator,
            system_prompt=system_prompt,
        )

        label_policy_input_request.additional_properties = d
        return label_policy_input_request

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
