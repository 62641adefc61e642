from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookDeliveryOutput")


@_attrs_define
class WebhookDeliveryOutput:
    """
    Attributes:
        id (int):
        event_type (str):
        message_id (str):
        status (str):
        attempts (int):
        status_code (int | None):
        duration_ms (int | None):
        error (str):
        created_at (datetime.datetime):
        next_attempt_at (datetime.datetime | None):
        finished_at (datetime.datetime | None):
        payload (Any):
    """

    id: int
    event_type: str
    message_id: str
    status: str
    attempts: int
    status_code: int | None
    duration_ms: int | None
    error: str
    created_at: datetime.datetime
    next_attempt_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    payload: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        event_type = self.event_type

        message_id = self.message_id

        status = self.status

        attempts = self.attempts

        status_code: int | None
        status_code = self.status_code

        duration_ms: int | None
        duration_ms = self.duration_ms

        error = self.error

        created_at = self.created_at.isoformat()

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        payload = self.payload

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "event_type": event_type,
                "message_id": message_id,
                "status": status,
                "attempts": attempts,
                "status_code": status_code,
                "duration_ms": duration_ms,
                "error": error,
                "created_at": created_at,
                "next_attempt_at": next_attempt_at,
                "finished_at": finished_at,
                "payload": payload,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        event_type = d.pop("event_type")

        message_id = d.pop("message_id")

        status = d.pop("status")

        attempts = d.pop("attempts")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))

        def _parse_duration_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        duration_ms = _parse_duration_ms(d.pop("duration_ms"))

        error = d.pop("error")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        payload = d.pop("payload")

        webhook_delivery_output = cls(
            id=id,
            event_type=event_type,
            message_id=message_id,
            status=status,
            attempts=attempts,
            status_code=status_code,
            duration_ms=duration_ms,
            error=error,
            created_at=created_at,
            next_attempt_at=next_attempt_at,
            finished_at=finished_at,
            payload=payload,
        )

        webhook_delivery_output.additional_properties = d
        return webhook_delivery_output

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
