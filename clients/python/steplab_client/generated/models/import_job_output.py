from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.blank_enum import BlankEnum
from ..models.job_status_enum import JobStatusEnum
from ..models.step_split_enum import StepSplitEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ImportJobOutput")


@_attrs_define
class ImportJobOutput:
    """
    Attributes:
        id (int):
        filename (str):
        created_at (datetime.datetime):
        hub (Any | Unset):
        format_ (str | Unset):
        detected_format (str | Unset):
        labels_as (str | Unset):
        domain (str | Unset):
        detect_uses (bool | Unset):
        near_duplicates (str | Unset):
        step_split (BlankEnum | StepSplitEnum | Unset):
        step_split_regex (str | Unset):
        step_split_tag (str | Unset):
        status (JobStatusEnum | Unset): * `pending` - Pending
            * `running` - Running
            * `done` - Done
            * `failed` - Failed
        bytes_total (int | Unset):
        bytes_done (int | Unset):
        rows_done (int | Unset):
        result (Any | Unset):
        error (Any | Unset):
        finished_at (datetime.datetime | None | Unset):
    """

    id: int
    filename: str
    created_at: datetime.datetime
    hub: Any | Unset = UNSET
    format_: str | Unset = UNSET
    detected_format: str | Unset = UNSET
    labels_as: str | Unset = UNSET
    domain: str | Unset = UNSET
    detect_uses: bool | Unset = UNSET
    near_duplicates: str | Unset = UNSET
    step_split: BlankEnum | StepSplitEnum | Unset = UNSET
    step_split_regex: str | Unset = UNSET
    step_split_tag: str | Unset = UNSET
    status: JobStatusEnum | Unset = UNSET
    bytes_total: int | Unset = UNSET
    bytes_done: int | Unset = UNSET
    rows_done: int | Unset = UNSET
    result: Any | Unset = UNSET
    error: Any | Unset = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        filename = self.filename

        created_at = self.created_at.isoformat()

        hub = self.hub

        format_ = self.format_

        detected_format = self.detected_format

        labels_as = self.labels_as

        domain = self.domain

        detect_uses = self.detect_uses

        near_duplicates = self.near_duplicates

        step_split: str | Unset
        if isinstance(self.step_split, Unset):
            step_split = UNSET
        elif isinstance(self.step_split, StepSplitEnum):
            step_split = self.step_split.value
        else:
            step_split = self.step_split.value

        step_split_regex = self.step_split_regex

        step_split_tag = self.step_split_tag

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        bytes_total = self.bytes_total

        bytes_done = self.bytes_done

        rows_done = self.rows_done

        result = self.result

        error = self.error

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "filename": filename,
                "created_at": created_at,
            }
        )
        if hub is not UNSET:
            field_dict["hub"] = hub
        if format_ is not UNSET:
            field_dict["format"] = format_
        if detected_format is not UNSET:
            field_dict["detected_format"] = detected_format
        if labels_as is not UNSET:
            field_dict["labels_as"] = labels_as
        if domain is not UNSET:
            field_dict["domain"] = domain
        if detect_uses is not UNSET:
            field_dict["detect_uses"] = detect_uses
        if near_duplicates is not UNSET:
            field_dict["near_duplicates"] = near_duplicates
        if step_split is not UNSET:
            field_dict["step_split"] = step_split
        if step_split_regex is not UNSET:
            field_dict["step_split_regex"] = step_split_regex
        if step_split_tag is not UNSET:
            field_dict["step_split_tag"] = step_split_tag
        if status is not UNSET:
            field_dict["status"] = status
        if bytes_total is not UNSET:
            field_dict["bytes_total"] = bytes_total
        if bytes_done is not UNSET:
            field_dict["bytes_done"] = bytes_done
        if rows_done is not UNSET:
            field_dict["rows_done"] = rows_done
        if result is not UNSET:
            field_dict["result"] = result
        if error is not UNSET:
            field_dict["error"] = error
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        filename = d.pop("filename")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        hub = d.pop("hub", UNSET)

        format_ = d.pop("format", UNSET)

        detected_format = d.pop("detected_format", UNSET)

        labels_as = d.pop("labels_as", UNSET)

        domain = d.pop("domain", UNSET)

        detect_uses = d.pop("detect_uses", UNSET)

        near_duplicates = d.pop("near_duplicates", UNSET)

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

        _status = d.pop("status", UNSET)
        status: JobStatusEnum | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = JobStatusEnum(_status)

        bytes_total = d.pop("bytes_total", UNSET)

        bytes_done = d.pop("bytes_done", UNSET)

        rows_done = d.pop("rows_done", UNSET)

        result = d.pop("result", UNSET)

        error = d.pop("error", UNSET)

        def _parse_finished_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        finished_at = _parse_finished_at(d.pop("finished_at", UNSET))

        import_job_output = cls(
            id=id,
            filename=filename,
            created_at=created_at,
            hub=hub,
            format_=format_,
            detected_format=detected_format,
            labels_as=labels_as,
            domain=domain,
            detect_uses=detect_uses,
            near_duplicates=near_duplicates,
            step_split=step_split,
            step_split_regex=step_split_regex,
            step_split_tag=step_split_tag,
            status=status,
            bytes_total=bytes_total,
            bytes_done=bytes_done,
            rows_done=rows_done,
            result=result,
            error=error,
            finished_at=finished_at,
        )

        import_job_output.additional_properties = d
        return import_job_output

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
