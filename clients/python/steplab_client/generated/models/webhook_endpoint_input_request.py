from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.events_enum import EventsEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookEndpointInputRequest")


@_attrs_define
class WebhookEndpointInputRequest:
    """
    Attributes:
        url (str):
        events (list[EventsEnum]): Event types to receive: import.finished, autolabel_run.finished, export.ready,
            export.failed, annotation.submitted, review.resolved.
        description (str | Unset):  Default: ''.
        active (bool | Unset):  Default: True.
    """

    url: str
    events: list[EventsEnum]
    description: str | Unset = ""
    active: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        description = self.description

        active = self.active

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
                "events": events,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if active is not UNSET:
            field_dict["active"] = active

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("url", (None, str(self.url).encode(), "text/plain")))

        for events_item_element in self.events:
            files.append(("events", (None, str(events_item_element.value).encode(), "text/plain")))

        if not isinstance(self.description, Unset):
            files.append(("description", (None, str(self.description).encode(), "text/plain")))

        if not isinstance(self.active, Unset):
            files.append(("active", (None, str(self.active).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = EventsEnum(events_item_data)

            events.append(events_item)

        description = d.pop("description", UNSET)

        active = d.pop("active", UNSET)

        webhook_endpoint_input_request = cls(
            url=url,
            events=events,
            description=description,
            active=active,
        )

        webhook_endpoint_input_request.additional_properties = d
        return webhook_endpoint_input_request

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
