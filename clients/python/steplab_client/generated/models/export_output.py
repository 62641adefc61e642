from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.export_format_enum import ExportFormatEnum
from ..models.export_output_file_type_enum import ExportOutputFileTypeEnum
from ..models.job_status_enum import JobStatusEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.export_progress_output import ExportProgressOutput
    from ..models.export_user_output import ExportUserOutput


T = TypeVar("T", bound="ExportOutput")


@_attrs_define
class ExportOutput:
    """
    Attributes:
        id (int):
        project (int):
        format_ (ExportFormatEnum): * `trl` - trl
            * `prm800k` - prm800k
            * `math_shepherd` - math_shepherd
            * `processbench` - processbench
            * `pairwise` - pairwise
            * `dense_rewards` - dense_rewards
            * `openrlhf` - openrlhf
            * `chat_template` - chat_template
        progress (ExportProgressOutput):
        file_name (None | str):
        download_url (None | str):
        card_url (None | str):
        created_by (ExportUserOutput | None):
        created_at (datetime.datetime):
        file_type (ExportOutputFileTypeEnum | Unset): * `jsonl` - JSON Lines
            * `jsonl.gz` - JSON Lines, gzip
            * `parquet` - Parquet
        filters (Any | Unset):
        label_policy (Any | Unset):
        split_policy (Any | Unset):
        status (JobStatusEnum | Unset): * `pending` - Pending
            * `running` - Running
            * `done` - Done
            * `failed` - Failed
        row_count (int | Unset):
        step_count (int | Unset):
        stats (Any | Unset): Counts shown in the card.
        sha256 (str | Unset): Of the data file only.
        size_bytes (int | Unset):
        error (Any | Unset):
        started_at (datetime.datetime | None | Unset):
        finished_at (datetime.datetime | None | Unset):
    """

    id: int
    project: int
    format_: ExportFormatEnum
    progress: ExportProgressOutput
    file_name: None | str
    download_url: None | str
    card_url: None | str
    created_by: ExportUserOutput | None
    created_at: datetime.datetime
    file_type: ExportOutputFileTypeEnum | Unset = UNSET
    filters: Any | Unset = UNSET
    label_policy: Any | Unset = UNSET
    split_policy: Any | Unset = UNSET
    status: JobStatusEnum | Unset = UNSET
    row_count: int | Unset = UNSET
    step_count: int | Unset = UNSET
    stats: Any | Unset = UNSET
    sha256: str | Unset = UNSET
    size_bytes: int | Unset = UNSET
    error: Any | Unset = UNSET
    started_at: datetime.datetime | None | Unset = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.export_user_output import ExportUserOutput

        id = self.id

        project = self.project

        format_ = self.format_.value

        progress = self.progress.to_dict()

        file_name: None | str
        file_name = self.file_name

        download_url: None | str
        download_url = self.download_url

        card_url: None | str
        card_url = self.card_url

        created_by: dict[str, Any] | None
        if isinstance(self.created_by, ExportUserOutput):
            created_by = self.created_by.to_dict()
        else:
            created_by = self.created_by

        created_at = self.created_at.isoformat()

        file_type: str | Unset = UNSET
        if not isinstance(self.file_type, Unset):
            file_type = self.file_type.value

        filters = self.filters

        label_policy = self.label_policy

        split_policy = self.split_policy

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        row_count = self.row_count

        step_count = self.step_count

        stats = self.stats

        sha256 = self.sha256

        size_bytes = self.size_bytes

        error = self.error

        started_at: None | str | Unset
        if isinstance(self.started_at, Unset):
            started_at = UNSET
        elif isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

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
                "project": project,
                "format": format_,
                "progress": progress,
                "file_name": file_name,
                "download_url": download_url,
                "card_url": card_url,
                "created_by": created_by,
                "created_at": created_at,
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
        if status is not UNSET:
            field_dict["status"] = status
        if row_count is not UNSET:
            field_dict["row_count"] = row_count
        if step_count is not UNSET:
            field_dict["step_count"] = step_count
        if stats is not UNSET:
            field_dict["stats"] = stats
        if sha256 is not UNSET:
            field_dict["sha256"] = sha256
        if size_bytes is not UNSET:
            field_dict["size_bytes"] = size_bytes
        if error is not UNSET:
            field_dict["error"] = error
        if started_at is not UNSET:
            field_dict["started_at"] = started_at
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.export_progress_output import ExportProgressOutput
        from ..models.export_user_output import ExportUserOutput

        d = dict(src_dict)
        id = d.pop("id")

        project = d.pop("project")

        format_ = ExportFormatEnum(d.pop("format"))

        progress = ExportProgressOutput.from_dict(d.pop("progress"))

        def _parse_file_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        file_name = _parse_file_name(d.pop("file_name"))

        def _parse_download_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        download_url = _parse_download_url(d.pop("download_url"))

        def _parse_card_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        card_url = _parse_card_url(d.pop("card_url"))

        def _parse_created_by(data: object) -> ExportUserOutput | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                created_by_type_1 = ExportUserOutput.from_dict(data)

                return created_by_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ExportUserOutput | None, data)

        created_by = _parse_created_by(d.pop("created_by"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        _file_type = d.pop("file_type", UNSET)
        file_type: ExportOutputFileTypeEnum | Unset
        if isinstance(_file_type, Unset):
            file_type = UNSET
        else:
            file_type = ExportOutputFileTypeEnum(_file_type)

        filters = d.pop("filters", UNSET)

        label_policy = d.pop("label_policy", UNSET)

        split_policy = d.pop("split_policy", UNSET)

        _status = d.pop("status", UNSET)
        status: JobStatusEnum | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = JobStatusEnum(_status)

        row_count = d.pop("row_count", UNSET)

        step_count = d.pop("step_count", UNSET)

        stats = d.pop("stats", UNSET)

        sha256 = d.pop("sha256", UNSET)

        size_bytes = d.pop("size_bytes", UNSET)

        error = d.pop("error", UNSET)

        def _parse_started_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        started_at = _parse_started_at(d.pop("started_at", UNSET))

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

        export_output = cls(
            id=id,
            project=project,
            format_=format_,
            progress=progress,
            file_name=file_name,
            download_url=download_url,
            card_url=card_url,
            created_by=created_by,
            created_at=created_at,
            file_type=file_type,
            filters=filters,
            label_policy=label_policy,
            split_policy=split_policy,
            status=status,
            row_count=row_count,
            step_count=step_count,
            stats=stats,
            sha256=sha256,
            size_bytes=size_bytes,
            error=error,
            started_at=started_at,
            finished_at=finished_at,
        )

        export_output.additional_properties = d
        return export_output

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
