from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="QueueItemOutput")


@_attrs_define
class QueueItemOutput:
    """
    Attributes:
        id (int):
        problem_id (int):
        problem_text (str):
        problem_source (str):
        problem_domain (str):
        generator (str):
        is_gold (bool):
        reasons (list[str]):
        reason (str):
        annotations_submitted (int):
        last_submitted_at (datetime.datetime | None):
        resolution_id (int | None):
        resolution_provenance (None | str):
    """

    id: int
    problem_id: int
    problem_text: str
    problem_source: str
    problem_domain: str
    generator: str
    is_gold: bool
    reasons: list[str]
    reason: str
    annotations_submitted: int
    last_submitted_at: datetime.datetime | None
    resolution_id: int | None
    resolution_provenance: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        problem_id = self.problem_id

        problem_text = self.problem_text

        problem_source = self.problem_source

        problem_domain = self.problem_domain

        generator = self.generator

        is_gold = self.is_gold

        reasons = self.reasons

        reason = self.reason

        annotations_submitted = self.annotations_submitted

        last_submitted_at: None | str
        if isinstance(self.last_submitted_at, datetime.datetime):
            last_submitted_at = self.last_submitted_at.isoformat()
        else:
            last_submitted_at = self.last_submitted_at

        resolution_id: int | None
        resolution_id = self.resolution_id

        resolution_provenance: None | str
        resolution_provenance = self.resolution_provenance

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "problem_id": problem_id,
                "problem_text": problem_text,
                "problem_source": problem_source,
                "problem_domain": problem_domain,
                "generator": generator,
                "is_gold": is_gold,
                "reasons": reasons,
                "reason": reason,
                "annotations_submitted": annotations_submitted,
                "last_submitted_at": last_submitted_at,
                "resolution_id": resolution_id,
                "resolution_provenance": resolution_provenance,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        problem_id = d.pop("problem_id")

        problem_text = d.pop("problem_text")

        problem_source = d.pop("problem_source")

        problem_domain = d.pop("problem_domain")

        generator = d.pop("generator")

        is_gold = d.pop("is_gold")

        reasons = cast(list[str], d.pop("reasons"))

        reason = d.pop("reason")

        annotations_submitted = d.pop("annotations_submitted")

        def _parse_last_submitted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_submitted_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_submitted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_submitted_at = _parse_last_submitted_at(d.pop("last_submitted_at"))

        def _parse_resolution_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        resolution_id = _parse_resolution_id(d.pop("resolution_id"))

        def _parse_resolution_provenance(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        resolution_provenance = _parse_resolution_provenance(d.pop("resolution_provenance"))

        queue_item_output = cls(
            id=id,
            problem_id=problem_id,
            problem_text=problem_text,
            problem_source=problem_source,
            problem_domain=problem_domain,
            generator=generator,
            is_gold=is_gold,
            reasons=reasons,
            reason=reason,
            annotations_submitted=annotations_submitted,
            last_submitted_at=last_submitted_at,
            resolution_id=resolution_id,
            resolution_provenance=resolution_provenance,
        )

        queue_item_output.additional_properties = d
        return queue_item_output

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
