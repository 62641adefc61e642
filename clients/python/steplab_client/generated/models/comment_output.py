from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CommentOutput")


@_attrs_define
class CommentOutput:
    """
    Attributes:
        id (int):
        step_id (int | None):
        author (str):
        body (str):
        review_id (int | None):
        created_at (datetime.datetime):
    """

    id: int
    step_id: int | None
    author: str
    body: str
    review_id: int | None
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        step_id: int | None
        step_id = self.step_id

        author = self.author

        body = self.body

        review_id: int | None
        review_id = self.review_id

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "step_id": step_id,
                "author": author,
                "body": body,
                "review_id": review_id,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_step_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        step_id = _parse_step_id(d.pop("step_id"))

        author = d.pop("author")

        body = d.pop("body")

        def _parse_review_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        review_id = _parse_review_id(d.pop("review_id"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        comment_output = cls(
            id=id,
            step_id=step_id,
            author=author,
            body=body,
            review_id=review_id,
            created_at=created_at,
        )

        comment_output.additional_properties = d
        return comment_output

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
