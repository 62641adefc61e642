from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.training_status_enum import TrainingStatusEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="TrainingRunSummaryOutput")


@_attrs_define
class TrainingRunSummaryOutput:
    """The list leaves out the metric history and the log.

    Attributes:
        id (int):
        project (int):
        base_model (str): Checkpoint directory trained from.
        progress (float):
        prm_model (int | None):
        created_at (datetime.datetime):
        export (int | None | Unset):
        config (Any | Unset): TrainConfig settings.
        status (TrainingStatusEnum | Unset): * `pending` - Pending
            * `running` - Running
            * `done` - Done
            * `failed` - Failed
            * `cancelled` - Cancelled
        step (int | Unset): Optimizer steps done.
        total_steps (int | Unset):
        metrics (Any | Unset): The latest metrics.jsonl record of each split.
        artifact_path (str | Unset):
        error (str | Unset):
        attempts (int | Unset):
        created_by (str | Unset):
        started_at (datetime.datetime | None | Unset):
        finished_at (datetime.datetime | None | Unset):
    """

    id: int
    project: int
    base_model: str
    progress: float
    prm_model: int | None
    created_at: datetime.datetime
    export: int | None | Unset = UNSET
    config: Any | Unset = UNSET
    status: TrainingStatusEnum | Unset = UNSET
    step: int | Unset = UNSET
    total_steps: int | Unset = UNSET
    metrics: Any | Unset = UNSET
    artifact_path: str | Unset = UNSET
    error: str | Unset = UNSET
    attempts: int | Unset = UNSET
    created_by: str | Unset = UNSET
    started_at: datetime.datetime | None | Unset = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        project = self.project

        base_model = self.base_model

        progress = self.progress

        prm_model: int | None
        prm_model = self.prm_model

        created_at = self.created_at.isoformat()

        export: int | None | Unset
        if isinstance(self.export, Unset):
            export = UNSET
        else:
            export = self.export

        config = self.config

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        step = self.step

        total_steps = self.total_steps

        metrics = self.metrics

        artifact_path = self.artifact_path

        error = self.error

        attempts = self.attempts

        created_by = self.created_by

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
                "base_model": base_model,
                "progress": progress,
                "prm_model": prm_model,
                "created_at": created_at,
            }
        )
        if export is not UNSET:
            field_dict["export"] = export
        if config is not UNSET:
            field_dict["config"] = config
        if status is not UNSET:
            field_dict["status"] = status
        if step is not UNSET:
            field_dict["step"] = step
        if total_steps is not UNSET:
            field_dict["total_steps"] = total_steps
        if metrics is not UNSET:
            field_dict["metrics"] = metrics
        if artifact_path is not UNSET:
            field_dict["artifact_path"] = artifact_path
        if error is not UNSET:
            field_dict["error"] = error
        if attempts is not UNSET:
            field_dict["attempts"] = attempts
        if created_by is not UNSET:
            field_dict["created_by"] = created_by
        if started_at is not UNSET:
            field_dict["started_at"] = started_at
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        project = d.pop("project")

        base_model = d.pop("base_model")

        progress = d.pop("progress")

        def _parse_prm_model(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        prm_model = _parse_prm_model(d.pop("prm_model"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_export(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        export = _parse_export(d.pop("export", UNSET))

        config = d.pop("config", UNSET)

        _status = d.pop("status", UNSET)
        status: TrainingStatusEnum | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = TrainingStatusEnum(_status)

        step = d.pop("step", UNSET)

        total_steps = d.pop("total_steps", UNSET)

        metrics = d.pop("metrics", UNSET)

        artifact_path = d.pop("artifact_path", UNSET)

        error = d.pop("error", UNSET)

        attempts = d.pop("attempts", UNSET)

        created_by = d.pop("created_by", UNSET)

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

        training_run_summary_output = cls(
            id=id,
            project=project,
            base_model=base_model,
            progress=progress,
            prm_model=prm_model,
            created_at=created_at,
            export=export,
            config=config,
            status=status,
            step=step,
            total_steps=total_steps,
            metrics=metrics,
            artifact_path=artifact_path,
            error=error,
            attempts=attempts,
            created_by=created_by,
            started_at=started_at,
            finished_at=finished_at,
        )

        training_run_summary_output.additional_properties = d
        return training_run_summary_output

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
