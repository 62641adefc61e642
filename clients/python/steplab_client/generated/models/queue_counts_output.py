from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="QueueCountsOutput")


@_attrs_define
class QueueCountsOutput:
    """Queued solutions per reason, each counted up to 1,000 (`counts_capped` names those).

    Attributes:
        total (int):
        disagreement (int):
        unsure (int):
        gold_failure (int):
        auto_conflict (int):
        single_annotator (int): One submitted annotation: nobody agreed or disagreed with it.
        rest (int): Two or more annotators who agree, no flag (counted to the cap like the others).
    """

    total: int
    disagreement: int
    unsure: int
    gold_failure: int
    auto_conflict: int
    single_annotator: int
    rest: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total = self.total

        disagreement = self.disagreement

        unsure = self.unsure

        gold_failure = self.gold_failure

        auto_conflict = self.auto_conflict

        single_annotator = self.single_annotator

        rest = self.rest

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total": total,
                "disagreement": disagreement,
                "unsure": unsure,
                "gold_failure": gold_failure,
                "auto_conflict": auto_conflict,
                "single_annotator": single_annotator,
                "rest": rest,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        total = d.pop("total")

        disagreement = d.pop("disagreement")

        unsure = d.pop("unsure")

        gold_failure = d.pop("gold_failure")

        auto_conflict = d.pop("auto_conflict")

        single_annotator = d.pop("single_annotator")

        rest = d.pop("rest")

        queue_counts_output = cls(
            total=total,
            disagreement=disagreement,
            unsure=unsure,
            gold_failure=gold_failure,
            auto_conflict=auto_conflict,
            single_annotator=single_annotator,
            rest=rest,
        )

        queue_counts_output.additional_properties = d
        return queue_counts_output

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
