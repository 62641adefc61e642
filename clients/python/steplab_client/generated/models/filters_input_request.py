from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.label_source_enum import LabelSourceEnum
from ..models.unsure_enum import UnsureEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.benchmark_set_input_request import BenchmarkSetInputRequest


T = TypeVar("T", bound="FiltersInputRequest")


@_attrs_define
class FiltersInputRequest:
    """Refuses keys it does not know, instead of silently dropping an option.

    Attributes:
        label_source (LabelSourceEnum | Unset): * `final` - final
            * `reviewed` - reviewed
            * `human` - human
            * `imported` - imported
            * `annotations` - annotations
            * `auto_consensus` - auto_consensus
            * `auto_any` - auto_any
        machine_labels (bool | Unset): label_source=final: machine labels (suggestions, machine-agreed resolutions) for
            steps no human labeled. Default false.
        auto_sources (list[str] | Unset): Suggestion sources for auto_any, most preferred first: the built-in ones and
            any installed engine plug-in's name (GET /api/autolabel-engines/).
        min_agreement (float | Unset):
        unsure (UnsureEnum | Unset): * `drop` - drop
            * `truncate` - truncate
            * `keep` - keep
        labeled_after (datetime.datetime | None | Unset):
        labeled_before (datetime.datetime | None | Unset):
        annotators (list[str] | Unset):
        problem_sources (list[str] | Unset):
        include_gold (bool | Unset): Gold questions are excluded by default once they exist.
        min_score (float | None | Unset): auto_consensus / auto_any: leave out machine labels whose score (the measured
            probability that the verdict is right) is below this or unknown.
        decontaminate (list[BenchmarkSetInputRequest] | Unset): Benchmark sets to decontaminate against: problems equal
            to a benchmark problem after normalization, or near-duplicates of one (a reworded copy), are left out and
            counted in the card. Each is {file: a JSONL file in the server's benchmark folder} or {hub: owner/name, config,
            split}; rows carry `problem` or `question`.
    """

    label_source: LabelSourceEnum | Unset = UNSET
    machine_labels: bool | Unset = UNSET
    auto_sources: list[str] | Unset = UNSET
    min_agreement: float | Unset = UNSET
    unsure: UnsureEnum | Unset = UNSET
    labeled_after: datetime.datetime | None | Unset = UNSET
    labeled_before: datetime.datetime | None | Unset = UNSET
    annotators: list[str] | Unset = UNSET
    problem_sources: list[str] | Unset = UNSET
    include_gold: bool | Unset = UNSET
    min_score: float | None | Unset = UNSET
    decontaminate: list[BenchmarkSetInputRequest] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        label_source: str | Unset = UNSET
        if not isinstance(self.label_source, Unset):
            label_source = self.label_source.value

        machine_labels = self.machine_labels

        auto_sources: list[str] | Unset = UNSET
        if not isinstance(self.auto_sources, Unset):
            auto_sources = self.auto_sources

        min_agreement = self.min_agreement

        unsure: str | Unset = UNSET
        if not isinstance(self.unsure, Unset):
            unsure = self.unsure.value

        labeled_after: None | str | Unset
        if isinstance(self.labeled_after, Unset):
            labeled_after = UNSET
        elif isinstance(self.labeled_after, datetime.datetime):
            labeled_after = self.labeled_after.isoformat()
        else:
            labeled_after = self.labeled_after

        labeled_before: None | str | Unset
        if isinstance(self.labeled_before, Unset):
            labeled_before = UNSET
        elif isinstance(self.labeled_before, datetime.datetime):
            labeled_before = self.labeled_before.isoformat()
        else:
            labeled_before = self.labeled_before

        annotators: list[str] | Unset = UNSET
        if not isinstance(self.annotators, Unset):
            annotators = self.annotators

        problem_sources: list[str] | Unset = UNSET
        if not isinstance(self.problem_sources, Unset):
            problem_sources = self.problem_sources

        include_gold = self.include_gold

        min_score: float | None | Unset
        if isinstance(self.min_score, Unset):
            min_score = UNSET
        else:
            min_score = self.min_score

        decontaminate: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.decontaminate, Unset):
            decontaminate = []
            for decontaminate_item_data in self.decontaminate:
                decontaminate_item = decontaminate_item_data.to_dict()
                decontaminate.append(decontaminate_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if label_source is not UNSET:
            field_dict["label_source"] = label_source
        if machine_labels is not UNSET:
            field_dict["machine_labels"] = machine_labels
        if auto_sources is not UNSET:
            field_dict["auto_sources"] = auto_sources
        if min_agreement is not UNSET:
            field_dict["min_agreement"] = min_agreement
        if unsure is not UNSET:
            field_dict["unsure"] = unsure
        if labeled_after is not UNSET:
            field_dict["labeled_after"] = labeled_after
        if labeled_before is not UNSET:
            field_dict["labeled_before"] = labeled_before
        if annotators is not UNSET:
            field_dict["annotators"] = annotators
        if problem_sources is not UNSET:
            field_dict["problem_sources"] = problem_sources
        if include_gold is not UNSET:
            field_dict["include_gold"] = include_gold
        if min_score is not UNSET:
            field_dict["min_score"] = min_score
        if decontaminate is not UNSET:
            field_dict["decontaminate"] = decontaminate

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.benchmark_set_input_request import BenchmarkSetInputRequest

        d = dict(src_dict)
        _label_source = d.pop("label_source", UNSET)
        label_source: LabelSourceEnum | Unset
        if isinstance(_label_source, Unset):
            label_source = UNSET
        else:
            label_source = LabelSourceEnum(_label_source)

        machine_labels = d.pop("machine_labels", UNSET)

        auto_sources = cast(list[str], d.pop("auto_sources", UNSET))

        min_agreement = d.pop("min_agreement", UNSET)

        _unsure = d.pop("unsure", UNSET)
        unsure: UnsureEnum | Unset
        if isinstance(_unsure, Unset):
            unsure = UNSET
        else:
            unsure = UnsureEnum(_unsure)

        def _parse_labeled_after(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                labeled_after_type_0 = datetime.datetime.fromisoformat(data)

                return labeled_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        labeled_after = _parse_labeled_after(d.pop("labeled_after", UNSET))

        def _parse_labeled_before(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                labeled_before_type_0 = datetime.datetime.fromisoformat(data)

                return labeled_before_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        labeled_before = _parse_labeled_before(d.pop("labeled_before", UNSET))

        annotators = cast(list[str], d.pop("annotators", UNSET))

        problem_sources = cast(list[str], d.pop("problem_sources", UNSET))

        include_gold = d.pop("include_gold", UNSET)

        def _parse_min_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        min_score = _parse_min_score(d.pop("min_score", UNSET))

        _decontaminate = d.pop("decontaminate", UNSET)
        decontaminate: list[BenchmarkSetInputRequest] | Unset = UNSET
        if _decontaminate is not UNSET:
            decontaminate = []
            for decontaminate_item_data in _decontaminate:
                decontaminate_item = BenchmarkSetInputRequest.from_dict(decontaminate_item_data)

                decontaminate.append(decontaminate_item)

        filters_input_request = cls(
            label_source=label_source,
            machine_labels=machine_labels,
            auto_sources=auto_sources,
            min_agreement=min_agreement,
            unsure=unsure,
            labeled_after=labeled_after,
            labeled_before=labeled_before,
            annotators=annotators,
            problem_sources=problem_sources,
            include_gold=include_gold,
            min_score=min_score,
            decontaminate=decontaminate,
        )

        filters_input_request.additional_properties = d
        return filters_input_request

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
