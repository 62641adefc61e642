from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookEndpointOutput")


@_attrs_define
class WebhookEndpointOutput:
    """
    Attributes:
        id (int):
        url (str):
        events (list[str]):
        active (bool):
        description (str):
        disabled_reason (str): Why the server turned it off (410 Gone).
        secret_hint (str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        secret_rotated_at (datetime.datetime | None):
    """

    id: int
    url: str
    events: list[str]
    active: bool
    description: str
    disabled_reason: str
    secret_hint: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    secret_rotated_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        events = self.events

        active = self.active

        description = self.description

        disabled_reason = self.disabled_reason

        secret_hint = self.secret_hint

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        secret_rotated_at: None | str
        if isinstance(self.secret_rotated_at, datetime.datetime):
            secret_rotated_at = self.secret_rotated_at.isoformat()
        else:
            secret_rotated_at = self.secret_rotated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "url": url,
                "events": events,
                "active": active,
                "description": description,
                "disabled_reason": disabled_reason,
                "secret_hint": secret_hint,
                "created_at": created_at,
                "updated_at": updated_at,
                "secret_rotated_at": secret_rotated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        events = cast(list[str], d.pop("events"))

        active = d.pop("active")

        description = d.pop("description")

        disabled_reason = d.pop("disabled_reason")

        secret_hint = d.pop("secret_hint")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_secret_rotated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                secret_rotated_at_type_0 = datetime.datetime.fromisoformat(data)

                return secret_rotated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        secret_rotated_at = _parse_secret_rotated_at(d.pop("secret_rotated_at"))

        webhook_endpoint_output = cls(
            id=id,
            url=url,
            events=events,
            active=active,
            description=description,
            disabled_reason=disabled_reason,
            secret_hint=secret_hint,
            created_at=created_at,
            updated_at=updated_at,
            secret_rotated_at=secret_rotated_at,
        )

        webhook_endpoint_output.additional_properties = d
        return webhook_endpoint_output

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
