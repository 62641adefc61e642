from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.strategy_enum import StrategyEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateInputRequest")


@_attrs_define
class CreateInputRequest:
    """
    Attributes:
        user_ids (list[int]):
        solution_ids (list[int] | Unset):
        source (str | Unset):
        only_open (bool | Unset):  Default: True.
        only_unassigned (bool | Unset):  Default: False.
        limit (int | Unset):
        strategy (StrategyEnum | Unset): * `each` - each
            * `round_robin` - round_robin
            * `weighted` - weighted Default: StrategyEnum.ROUND_ROBIN.
        weights (list[float] | Unset):
        per_solution (int | Unset):
    """

    user_ids: list[int]
    solution_ids: list[int] | Unset = UNSET
    source: str | Unset = UNSET
    only_open: bool | Unset = True
    only_unassigned: bool | Unset = False
    limit: int | Unset = UNSET
    strategy: StrategyEnum | Unset = StrategyEnum.ROUND_ROBIN
    weights: list[float] | Unset = UNSET
    per_solution: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        user_ids = self.user_ids

        solution_ids: list[int] | Unset = UNSET
        if not isinstance(self.solution_ids, Unset):
            solution_ids = self.solution_ids

        source = self.source

        only_open = self.only_open

        only_unassigned = self.only_unassigned

        limit = self.limit

        strategy: str | Unset = UNSET
        if not isinstance(self.strategy, Unset):
            strategy = self.strategy.value

        weights: list[float] | Unset = UNSET
        if not isinstance(self.weights, Unset):
            weights = self.weights

        per_solution = self.per_solution

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user_ids": user_ids,
            }
        )
        if solution_ids is not UNSET:
            field_dict["solution_ids"] = solution_ids
        if source is not UNSET:
            field_dict["source"] = source
        if only_open is not UNSET:
            field_dict["only_open"] = only_open
        if only_unassigned is not UNSET:
            field_dict["only_unassigned"] = only_unassigned
        if limit is not UNSET:
            field_dict["limit"] = limit
        if strategy is not UNSET:
            field_dict["strategy"] = strategy
        if weights is not UNSET:
            field_dict["weights"] = weights
        if per_solution is not UNSET:
            field_dict["per_solution"] = per_solution

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        for user_ids_item_element in self.user_ids:
            files.append(("user_ids", (None, str(user_ids_item_element).encode(), "text/plain")))

        if not isinstance(self.solution_ids, Unset):
            for solution_ids_item_element in self.solution_ids:
                files.append(
                    ("solution_ids", (None, str(solution_ids_item_element).encode(), "text/plain"))
                )

        if not isinstance(self.source, Unset):
            files.append(("source", (None, str(self.source).encode(), "text/plain")))

        if not isinstance(self.only_open, Unset):
            files.append(("only_open", (None, str(self.only_open).encode(), "text/plain")))

        if not isinstance(self.only_unassigned, Unset):
            files.append(
                ("only_unassigned", (None, str(self.only_unassigned).encode(), "text/plain"))
            )

        if not isinstance(self.limit, Unset):
            files.append(("limit", (None, str(self.limit).encode(), "text/plain")))

        if not isinstance(self.strategy, Unset):
            files.append(("strategy", (None, str(self.strategy.value).encode(), "text/plain")))

        if not isinstance(self.weights, Unset):
            for weights_item_element in self.weights:
                files.append(("weights", (None, str(weights_item_element).encode(), "text/plain")))

        if not isinstance(self.per_solution, Unset):
            files.append(("per_solution", (None, str(self.per_solution).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_ids = cast(list[int], d.pop("user_ids"))

        solution_ids = cast(list[int], d.pop("solution_ids", UNSET))

        source = d.pop("source", UNSET)

        only_open = d.pop("only_open", UNSET)

        only_unassigned = d.pop("only_unassigned", UNSET)

        limit = d.pop("limit", UNSET)

        _strategy = d.pop("strategy", UNSET)
        strategy: StrategyEnum | Unset
        if isinstance(_strategy, Unset):
            strategy = UNSET
        else:
            strategy = StrategyEnum(_strategy)

        weights = cast(list[float], d.pop("weights", UNSET))

        per_solution = d.pop("per_solution", UNSET)

        create_input_request = cls(
            user_ids=user_ids,
            solution_ids=solution_ids,
            source=source,
            only_open=only_open,
            only_unassigned=only_unassigned,
            limit=limit,
            strategy=strategy,
            weights=weights,
            per_solution=per_solution,
        )

        create_input_request.additional_properties = d
        return create_input_request

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
