from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.domain_enum import DomainEnum
from ..models.label_scale_enum import LabelScaleEnum
from ..models.step_split_enum import StepSplitEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.project_output_stats import ProjectOutputStats


T = TypeVar("T", bound="ProjectOutput")


@_attrs_define
class ProjectOutput:
    """
    Attributes:
        id (int):
        name (str):
        domain_sources (list[str]):
        rating_values (list[int]):
        queue_refresh_since (datetime.datetime | None): Set while a changed overlap is being applied to the claim pool
            by a background job (since then); null once applied. Meanwhile solutions a raised overlap reopens may not be
            served yet.
        role (None | str):
        stats (ProjectOutputStats):
        stats_computed_at (datetime.datetime | None): When `stats` were counted: null when current (counted now, or a
            snapshot at the project's metrics version), else the time of the metrics snapshot they come from (a large
            project, or one served from its snapshot while people label).
        created_at (datetime.datetime):
        description (str | Unset):
        domain (DomainEnum | Unset): * `math` - Math
            * `code` - Code
            * `agent` - Agent trajectories
            * `multimodal` - Multimodal (images)
            * `text` - Text tasks (QA, translation)
            * `graph` - Graph reasoning
            * `embodied` - Robotics / embodied tasks
            * `evidence` - Evidence-cited (documents, tables)
            * `mixed` - Many domains (each problem names its own)
        guidelines (str | Unset):
        label_scale (LabelScaleEnum | Unset): * `prm800k` - PRM800K: wrong (−1), neutral (0), correct (+1)
            * `binary` - Binary: wrong (−1), correct (+1)
        first_error_mode (bool | Unset): Annotators stop at the first wrong step (PRM800K phase 2).
        overlap (int | Unset): How many annotators must submit each solution.
        lock_ttl_seconds (int | Unset):
        show_suggestions (bool | Unset):
        allow_resegment (bool | Unset): Annotators may split a step or merge it with the next while labeling.
        auto_resolve (bool | Unset): Resolve a solution without review when its overlap annotators all agree.
        gold_rate (float | Unset): Share of claims that serve a gold question (0: never); annotators aren't told.
        screening_size (int | Unset): Gold questions a new annotator answers before any other work.
        screening_pass_rate (float | Unset): Share of screening steps that must match gold to pass.
        step_split (StepSplitEnum | Unset): * `line` - One step per line
            * `paragraph` - One step per blank-line paragraph
            * `step_marker` - "Step k:" markers
            * `regex` - Split on a regular expression
            * `sentence` - One step per sentence
            * `step_tags` - A model's step separator tags
        step_split_regex (str | Unset):
        step_split_tag (str | Unset):
    """

    id: int
    name: str
    domain_sources: list[str]
    rating_values: list[int]
    queue_refresh_since: datetime.datetime | None
    role: None | str
    stats: ProjectOutputStats
    stats_computed_at: datetime.datetime | None
    created_at: datetime.datetime
    description: str | Unset = UNSET
    domain: DomainEnum | Unset = UNSET
    guidelines: str | Unset = UNSET
    label_scale: LabelScaleEnum | Unset = UNSET
    first_error_mode: bool | Unset = UNSET
    overlap: int | Unset = UNSET
    lock_ttl_seconds: int | Unset = UNSET
    show_suggestions: bool | Unset = UNSET
    allow_resegment: bool | Unset = UNSET
    auto_resolve: bool | Unset = UNSET
    gold_rate: float | Unset = UNSET
    screening_size: int | Unset = UNSET
    screening_pass_rate: float | Unset = UNSET
    step_split: StepSplitEnum | Unset = UNSET
    step_split_regex: str | Unset = UNSET
    step_split_tag: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        domain_sources = self.domain_sources

        rating_values = self.rating_values

        queue_refresh_since: None | str
        if isinstance(self.queue_refresh_since, datetime.datetime):
            queue_refresh_since = self.queue_refresh_since.isoformat()
        else:
            queue_refresh_since = self.queue_refresh_since

        role: None | str
        role = self.role

        stats = self.stats.to_dict()

        stats_computed_at: None | str
        if isinstance(self.stats_computed_at, datetime.datetime):
            stats_computed_at = self.stats_computed_at.isoformat()
        else:
            stats_computed_at = self.stats_computed_at

        created_at = self.created_at.isoformat()

        description = self.description

        domain: str | Unset = UNSET
        if not isinstance(self.domain, Unset):
            domain = self.domain.value

        guidelines = self.guidelines

        label_scale: str | Unset = UNSET
        if not isinstance(self.label_scale, Unset):
            label_scale = self.label_scale.value

        first_error_mode = self.first_error_mode

        overlap = self.overlap

        lock_ttl_seconds = self.lock_ttl_seconds

        show_suggestions = self.show_suggestions

        allow_resegment = self.allow_resegment

        auto_resolve = self.auto_resolve

        gold_rate = self.gold_rate

        screening_size = self.screening_size

        screening_pass_rate = self.screening_pass_rate

        step_split: str | Unset = UNSET
        if not isinstance(self.step_split, Unset):
            step_split = self.step_split.value

        step_split_regex = self.step_split_regex

        step_split_tag = self.step_split_tag

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "domain_sources": domain_sources,
                "rating_values": rating_values,
                "queue_refresh_since": queue_refresh_since,
                "role": role,
                "stats": stats,
                "stats_computed_at": stats_computed_at,
                "created_at": created_at,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if domain is not UNSET:
            field_dict["domain"] = domain
        if guidelines is not UNSET:
            field_dict["guidelines"] = guidelines
        if label_scale is not UNSET:
            field_dict["label_scale"] = label_scale
        if first_error_mode is not UNSET:
            field_dict["first_error_mode"] = first_error_mode
        if overlap is not UNSET:
            field_dict["overlap"] = overlap
        if lock_ttl_seconds is not UNSET:
            field_dict["lock_ttl_seconds"] = lock_ttl_seconds
        if show_suggestions is not UNSET:
            field_dict["show_suggestions"] = show_suggestions
        if allow_resegment is not UNSET:
            field_dict["allow_resegment"] = allow_resegment
        if auto_resolve is not UNSET:
            field_dict["auto_resolve"] = auto_resolve
        if gold_rate is not UNSET:
            field_dict["gold_rate"] = gold_rate
        if screening_size is not UNSET:
            field_dict["screening_size"] = screening_size
        if screening_pass_rate is not UNSET:
            field_dict["screening_pass_rate"] = screening_pass_rate
        if step_split is not UNSET:
            field_dict["step_split"] = step_split
        if step_split_regex is not UNSET:
            field_dict["step_split_regex"] = step_split_regex
        if step_split_tag is not UNSET:
            field_dict["step_split_tag"] = step_split_tag

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.project_output_stats import ProjectOutputStats

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        domain_sources = cast(list[str], d.pop("domain_sources"))

        rating_values = cast(list[int], d.pop("rating_values"))

        def _parse_queue_refresh_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                queue_refresh_since_type_0 = datetime.datetime.fromisoformat(data)

                return queue_refresh_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        queue_refresh_since = _parse_queue_refresh_since(d.pop("queue_refresh_since"))

        def _parse_role(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        role = _parse_role(d.pop("role"))

        stats = ProjectOutputStats.from_dict(d.pop("stats"))

        def _parse_stats_computed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                stats_computed_at_type_0 = datetime.datetime.fromisoformat(data)

                return stats_computed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        stats_computed_at = _parse_stats_computed_at(d.pop("stats_computed_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        description = d.pop("description", UNSET)

        _domain = d.pop("domain", UNSET)
        domain: DomainEnum | Unset
        if isinstance(_domain, Unset):
            domain = UNSET
        else:
            domain = DomainEnum(_domain)

        guidelines = d.pop("guidelines", UNSET)

        _label_scale = d.pop("label_scale", UNSET)
        label_scale: LabelScaleEnum | Unset
        if isinstance(_label_scale, Unset):
            label_scale = UNSET
        else:
            label_scale = LabelScaleEnum(_label_scale)

        first_error_mode = d.pop("first_error_mode", UNSET)

        overlap = d.pop("overlap", UNSET)

        lock_ttl_seconds = d.pop("lock_ttl_seconds", UNSET)

        show_suggestions = d.pop("show_suggestions", UNSET)

        allow_resegment = d.pop("allow_resegment", UNSET)

        auto_resolve = d.pop("auto_resolve", UNSET)

        gold_rate = d.pop("gold_rate", UNSET)

        screening_size = d.pop("screening_size", UNSET)

        screening_pass_rate = d.pop("screening_pass_rate", UNSET)

        _step_split = d.pop("step_split", UNSET)
        step_split: StepSplitEnum | Unset
        if isinstance(_step_split, Unset):
            step_split = UNSET
        else:
            step_split = StepSplitEnum(_step_split)

        step_split_regex = d.pop("step_split_regex", UNSET)

        step_split_tag = d.pop("step_split_tag", UNSET)

        project_output = cls(
            id=id,
            name=name,
            domain_sources=domain_sources,
            rating_values=rating_values,
            queue_refresh_since=queue_refresh_since,
            role=role,
            stats=stats,
            stats_computed_at=stats_computed_at,
            created_at=created_at,
            description=description,
            domain=domain,
            guidelines=guidelines,
            label_scale=label_scale,
            first_error_mode=first_error_mode,
            overlap=overlap,
            lock_ttl_seconds=lock_ttl_seconds,
            show_suggestions=show_suggestions,
            allow_resegment=allow_resegment,
            auto_resolve=auto_resolve,
            gold_rate=gold_rate,
            screening_size=screening_size,
            screening_pass_rate=screening_pass_rate,
            step_split=step_split,
            step_split_regex=step_split_regex,
            step_split_tag=step_split_tag,
        )

        project_output.additional_properties = d
        return project_output

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
