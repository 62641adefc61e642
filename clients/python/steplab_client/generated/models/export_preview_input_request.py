from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.filters_input_request import FiltersInputRequest
    from ..models.label_policy_input_request import LabelPolicyInputRequest


T = TypeVar("T", bound="ExportPreviewInputRequest")


@_attrs_define
class ExportPreviewInputRequest:
    """Refuses keys it does not know, instead of silently dropping an option.

    Attributes:
        filters (FiltersInputRequest | Unset): Refuses keys it does not know, instead of silently dropping an option.
        label_policy (LabelPolicyInputRequest | Unset): Refuses keys it does not know, instead of silently dropping an
            option.
    """

    filters: FiltersInputRequest | Unset = UNSET
    label_policy: LabelPolicyInputRequest | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        filters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = self.filters.to_dict()

        label_policy: dict[str, Any] | Unset = UNSET
        if not isinstance(self.label_policy, Unset):
            label_policy = self.label_policy.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if filters is not UNSET:
            field_dict["filters"] = filters
        if label_policy is not UNSET:
            field_dict["label_policy"] = label_policy

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        if not isinstance(self.filters, Unset):
            files.append(
                ("filters", (None, json.dumps(self.filters.to_dict()).encode(), "application/json"))
            )

        if not isinstance(self.label_policy, Unset):
            files.append(
                (
                    "label_policy",
                    (None, json.dumps(self.label_policy.to_dict()).encode(), "application/json"),
                )
            )

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.filters_input_request import FiltersInputRequest
        from ..models.label_policy_input_request import LabelPolicyInputRequest

        d = dict(src_dict)
        _filters = d.pop("filters", UNSET)
        filters: FiltersInputRequest | Unset
        if isinstance(_filters, Unset):
            filters = UNSET
        else:
            filters = FiltersInputRequest.from_dict(_filters)

        _label_policy = d.pop("label_policy", UNSET)
        label_policy: LabelPolicyInputRequest | Unset
        if isinstance(_label_policy, Unset):
            label_policy = UNSET
        else:
            label_policy = LabelPolicyInputRequest.from_dict(_label_policy)

        export_preview_input_request = cls(
            filters=filters,
            label_policy=label_policy,
        )

        export_preview_input_request.additional_properties = d
        return export_preview_input_request

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
