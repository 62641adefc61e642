from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.export_format_enum import ExportFormatEnum
from ..models.export_input_file_type_enum import ExportInputFileTypeEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.filters_input_request import FiltersInputRequest
    from ..models.label_policy_input_request import LabelPolicyInputRequest
    from ..models.split_policy_input_request import SplitPolicyInputRequest


T = TypeVar("T", bound="ExportInputRequest")


@_attrs_define
class ExportInputRequest:
    """Refuses keys it does not know, instead of silently dropping an option.

    Attributes:
        format_ (ExportFormatEnum): * `trl` - trl
            * `prm800k` - prm800k
            * `math_shepherd` - math_shepherd
            * `processbench` - processbench
            * `pairwise` - pairwise
            * `dense_rewards` - dense_rewards
            * `openrlhf` - openrlhf
            * `chat_template` - chat_template
        file_type (ExportInputFileTypeEnum | Unset): * `jsonl` - jsonl
            * `jsonl.gz` - jsonl.gz
            * `parquet` - parquet Default: ExportInputFileTypeEnum.JSONL.
        filters (FiltersInputRequest | Unset): Refuses keys it does not know, instead of silently dropping an option.
        label_policy (LabelPolicyInputRequest | Unset): Refuses keys it does not know, instead of silently dropping an
            option.
        split_policy (SplitPolicyInputRequest | Unset): Refuses keys it does not know, instead of silently dropping an
            option.
        request_id (UUID | Unset): A key the client makes once per job it creates and sends again on every retry (a UUID
            is a good one); a retry with it answers the job made the first time instead of another. Same as Idempotency-Key.
    """

    format_: ExportFormatEnum
    file_type: ExportInputFileTypeEnum | Unset = ExportInputFileTypeEnum.JSONL
    filters: FiltersInputRequest | Unset = UNSET
    label_policy: LabelPolicyInputRequest | Unset = UNSET
    split_policy: SplitPolicyInputRequest | Unset = UNSET
    request_id: UUID | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_.value

        file_type: str | Unset = UNSET
        if not isinstance(self.file_type, Unset):
            file_type = self.file_type.value

        filters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = self.filters.to_dict()

        label_policy: dict[str, Any] | Unset = UNSET
        if not isinstance(self.label_policy, Unset):
            label_policy = self.label_policy.to_dict()

        split_policy: dict[str, Any] | Unset = UNSET
        if not isinstance(self.split_policy, Unset):
            split_policy = self.split_policy.to_dict()

        request_id: str | Unset = UNSET
        if not isinstance(self.request_id, Unset):
            request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "format": format_,
            }
        )
        if file_type is not UNSET:
            field_dict["file_type"] = file_type
        if filters is not UNSET:
            field_dict["filters"] = filters
        if label_policy is not UNSET:
            field_dict["label_policy"] = label_policy
        if split_policy is not UNSET:
            field_dict["split_policy"] = split_policy
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("format", (None, str(self.format_.value).encode(), "text/plain")))

        if not isinstance(self.file_type, Unset):
            files.append(("file_type", (None, str(self.file_type.value).encode(), "text/plain")))

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

        if not isinstance(self.split_policy, Unset):
            files.append(
                (
                    "split_policy",
                    (None, json.dumps(self.split_policy.to_dict()).encode(), "application/json"),
                )
            )

        if not isinstance(self.request_id, Unset):
            files.append(("request_id", (None, str(self.request_id), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.filters_input_request import FiltersInputRequest
        from ..models.label_policy_input_request import LabelPolicyInputRequest
        from ..models.split_policy_input_request import SplitPolicyInputRequest

        d = dict(src_dict)
        format_ = ExportFormatEnum(d.pop("format"))

        _file_type = d.pop("file_type", UNSET)
        file_type: ExportInputFileTypeEnum | Unset
        if isinstance(_file_type, Unset):
            file_type = UNSET
        else:
            file_type = ExportInputFileTypeEnum(_file_type)

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

        _split_policy = d.pop("split_policy", UNSET)
        split_policy: SplitPolicyInputRequest | Unset
        if isinstance(_split_policy, Unset):
            split_policy = UNSET
        else:
            split_policy = SplitPolicyInputRequest.from_dict(_split_policy)

        _request_id = d.pop("request_id", UNSET)
        request_id: UUID | Unset
        if isinstance(_request_id, Unset):
            request_id = UNSET
        else:
            request_id = UUID(_request_id)

        export_input_request = cls(
            format_=format_,
            file_type=file_type,
            filters=filters,
            label_policy=label_policy,
            split_policy=split_policy,
            request_id=request_id,
        )

        export_input_request.additional_properties = d
        return export_input_request

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
