from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.run_status_enum import RunStatusEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.error_group import ErrorGroup
    from ..models.verdict_counts import VerdictCounts


T = TypeVar("T", bound="RunOutput")


@_attrs_define
class RunOutput:
    """
    Attributes:
        id (int):
        sources (Any): Engine names, e.g. ["answer", "symbolic"].
        progress (float):
        rate (float | None): Solutions a second, smoothed; null before the first chunk.
        eta_seconds (float | None): Seconds left at the rate, while running.
        verdicts (VerdictCounts):
        error_groups (list[ErrorGroup]):
        created_at (datetime.datetime):
        params (Any | Unset): Per-source parameters.
        filter_ (Any | Unset): Which solutions to label.
        status (RunStatusEnum | Unset): * `pending` - Pending
            * `running` - Running
            * `paused` - Paused
            * `done` - Done
            * `failed` - Failed
            * `cancelled` - Cancelled
        total (int | Unset):
        done (int | Unset):
        failed (int | Unset):
        prepared (bool | Unset): Its items are all written. A run created over the API is not until its start task has
            written them (in the worker, not the request, in batches by solution id: autolabel.run_dispatch): `total` counts
            the items written so far until then.
        suggestions_written (int | Unset):
        errors (Any | Unset): The first errors, for display.
        started_at (datetime.datetime | None | Unset):
        finished_at (datetime.datetime | None | Unset):
    """

    id: int
    sources: Any
    progress: float
    rate: float | None
    eta_seconds: float | None
    verdicts: VerdictCounts
    error_groups: list[ErrorGroup]
    created_at: datetime.datetime
    params: Any | Unset = UNSET
    filter_: Any | Unset = UNSET
    status: RunStatusEnum | Unset = UNSET
    total: int | Unset = UNSET
    done: int | Unset = UNSET
    failed: int | Unset = UNSET
    prepared: bool | Unset = UNSET
    suggestions_written: int | Unset = UNSET
    errors: Any | Unset = UNSET
    started_at: datetime.datetime | None | Unset = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        sources = self.sources

        progress = self.progress

        rate: float | None
        rate = self.rate

        eta_seconds: float | None
        eta_seconds = self.eta_seconds

        verdicts = self.verdicts.to_dict()

        error_groups = []
        for error_groups_item_data in self.error_groups:
            error_groups_item = error_groups_item_data.to_dict()
            error_groups.append(error_groups_item)

        created_at = self.created_at.isoformat()

        params = self.params

        filter_ = self.filter_

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        total = self.total

        done = self.done

        failed = self.failed

        prepared = self.prepared

        suggestions_written = self.suggestions_written

        errors = self.errors

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
                "sources": sources,
                "progress": progress,
                "rate": rate,
                "eta_seconds": eta_seconds,
                "verdicts": verdicts,
                "error_groups": error_groups,
                "created_at": created_at,
            }
        )
        if params is not UNSET:
            field_dict["params"] = params
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if status is not UNSET:
            field_dict["status"] = status
        if total is not UNSET:
            field_dict["total"] = total
        if done is not UNSET:
            field_dict["done"] = done
        if failed is not UNSET:
            field_dict["failed"] = failed
        if prepared is not UNSET:
            field_dict["prepared"] = prepared
        if suggestions_written is not UNSET:
            field_dict["suggestions_written"] = suggestions_written
        if errors is not UNSET:
            field_dict["errors"] = errors
        if started_at is not UNSET:
            field_dict["started_at"] = started_at
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.error_group import ErrorGroup
        from ..models.verdict_counts import VerdictCounts

        d = dict(src_dict)
        id = d.pop("id")

        sources = d.pop("sources")

        progress = d.pop("progress")

        def _parse_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        rate = _parse_rate(d.pop("rate"))

        def _parse_eta_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        eta_seconds = _parse_eta_seconds(d.pop("eta_seconds"))

        verdicts = VerdictCounts.from_dict(d.pop("verdicts"))

        error_groups = []
        _error_groups = d.pop("error_groups")
        for error_groups_item_data in _error_groups:
            error_groups_item = ErrorGroup.from_dict(error_groups_item_data)

            error_groups.append(error_groups_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        params = d.pop("params", UNSET)

        filter_ = d.pop("filter", UNSET)

        _status = d.pop("status", UNSET)
        status: RunStatusEnum | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = RunStatusEnum(_status)

        total = d.pop("total", UNSET)

        done = d.pop("done", UNSET)

        failed = d.pop("failed", UNSET)

        prepared = d.pop("prepared", UNSET)

        suggestions_written = d.pop("suggestions_written", UNSET)

        errors = d.pop("errors", UNSET)

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

        run_output = cls(
            id=id,
            sources=sources,
            progress=progress,
            rate=rate,
            eta_seconds=eta_seconds,
            verdicts=verdicts,
            error_groups=error_groups,
            created_at=created_at,
            params=params,
            filter_=filter_,
            status=status,
            total=total,
            done=done,
            failed=failed,
            prepared=prepared,
            suggestions_written=suggestions_written,
            errors=errors,
            started_at=started_at,
            finished_at=finished_at,
        )

        run_output.additional_properties = d
        return run_output

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
