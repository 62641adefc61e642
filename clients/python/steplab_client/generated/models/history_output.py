from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="HistoryOutput")


@_attrs_define
class HistoryOutput:
    """
    Attributes:
        id (int):
        annotation_id (int | None):
        resolution_id (int | None):
        step_id (int):
        step_index (int):
        user (None | str):
        action (str):
        before (Any):
        after (Any):
        at (datetime.datetime):
    """

    id: int
    annotation_id: int | None
    resolution_id: int | None
    step_id: int
    step_index: int
    user: None | str
    action: str
    before: Any
    after: Any
    at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        annotation_id: int | None
        annotation_id = self.annotation_id

        resolution_id: int | None
        resolution_id = self.resolution_id

        step_id = self.step_id

        step_index = self.step_index

        user: None | str
        user = self.user

        action = self.action

        before = self.before

        after = self.after

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "annotation_id": annotation_id,
                "resolution_id": resolution_id,
                "step_id": step_id,
                "step_index": step_index,
                "user": user,
                "action": action,
                "before": before,
                "after": after,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_annotation_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        annotation_id = _parse_annotation_id(d.pop("annotation_id"))

        def _parse_resolution_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        resolution_id = _parse_resolution_id(d.pop("resolution_id"))

        step_id = d.pop("step_id")

        step_index = d.pop("step_index")

        def _parse_user(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user = _parse_user(d.pop("user"))

        action = d.pop("action")

        before = d.pop("before")

        after = d.pop("after")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        history_output = cls(
            id=id,
            annotation_id=annotation_id,
            resolution_id=resolution_id,
            step_id=step_id,
            step_index=step_index,
            user=user,
            action=action,
            before=before,
            after=after,
            at=at,
        )

        history_output.additional_properties = d
        return history_output

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
