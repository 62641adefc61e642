from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FinalCountsOutput")


@_attrs_define
class FinalCountsOutput:
    """
    Attributes:
        review (int):
        agreement (int):
        single (int):
        machine (int):
        tie (int):
        no_label (int):
    """

    review: int
    agreement: int
    single: int
    machine: int
    tie: int
    no_label: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        review = self.review

        agreement = self.agreement

        single = self.single

        machine = self.machine

        tie = self.tie

        no_label = self.no_label

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "review": review,
                "agreement": agreement,
                "single": single,
                "machine": machine,
                "tie": tie,
                "no_label": no_label,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        review = d.pop("review")

        agreement = d.pop("agreement")

        single = d.pop("single")

        machine = d.pop("machine")

        tie = d.pop("tie")

        no_label = d.pop("no_label")

        final_counts_output = cls(
            review=review,
            agreement=agreement,
            single=single,
            machine=machine,
            tie=tie,
            no_label=no_label,
        )

        final_counts_output.additional_properties = d
        return final_counts_output

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
