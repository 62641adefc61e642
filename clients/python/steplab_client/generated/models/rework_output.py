from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReworkOutput")


@_attrs_define
class ReworkOutput:
    """
    Attributes:
        rejected_annotation_id (int):
        comment (str):
        reviewer (None | str):
        rejected_at (datetime.datetime | None):
    """

    rejected_annotation_id: int
    comment: str
    reviewer: None | str
    rejected_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rejected_annotation_id = self.rejected_annotation_id

        comment = self.comment

        reviewer: None | str
        reviewer = self.reviewer

        rejected_at: None | str
        if isinstance(self.rejected_at, datetime.datetime):
            rejected_at = self.rejected_at.isoformat()
        else:
            rejected_at = self.rejected_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rejected_annotation_id": rejected_annotation_id,
                "comment": comment,
                "reviewer": reviewer,
                "rejected_at": rejected_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        rejected_annotation_id = d.pop("rejected_annotation_id")

        comment = d.pop("comment")

        def _parse_reviewer(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reviewer = _parse_reviewer(d.pop("reviewer"))

        def _parse_rejected_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                rejected_at_type_0 = datetime.datetime.fromisoformat(data)

                return rejected_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        rejected_at = _parse_rejected_at(d.pop("rejected_at"))

        rework_output = cls(
            rejected_annotation_id=rejected_annotation_id,
            comment=comment,
            reviewer=reviewer,
            rejected_at=rejected_at,
        )

        rework_output.additional_properties = d
        return rework_output

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
