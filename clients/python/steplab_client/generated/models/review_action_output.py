from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReviewActionOutput")


@_attrs_define
class ReviewActionOutput:
    """
    Attributes:
        id (int):
        action (str):
        annotation_id (int | None):
        reviewer (str):
        comment (str):
        created_at (datetime.datetime):
    """

    id: int
    action: str
    annotation_id: int | None
    reviewer: str
    comment: str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        action = self.action

        annotation_id: int | None
        annotation_id = self.annotation_id

        reviewer = self.reviewer

        comment = self.comment

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "action": action,
                "annotation_id": annotation_id,
                "reviewer": reviewer,
                "comment": comment,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        action = d.pop("action")

        def _parse_annotation_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        annotation_id = _parse_annotation_id(d.pop("annotation_id"))

        reviewer = d.pop("reviewer")

        comment = d.pop("comment")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        review_action_output = cls(
            id=id,
            action=action,
            annotation_id=annotation_id,
            reviewer=reviewer,
            comment=comment,
            created_at=created_at,
        )

        review_action_output.additional_properties = d
        return review_action_output

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
