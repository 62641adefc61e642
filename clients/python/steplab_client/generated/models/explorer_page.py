from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.explorer_row import ExplorerRow


T = TypeVar("T", bound="ExplorerPage")


@_attrs_define
class ExplorerPage:
    """
    Attributes:
        count (int): Matching solutions, counted up to 1,000 or to the end of the page asked for (see count_capped).
        count_capped (bool): More than `count` match.
        limit (int):
        offset (int):
        results (list[ExplorerRow]):
    """

    count: int
    count_capped: bool
    limit: int
    offset: int
    results: list[ExplorerRow]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        count_capped = self.count_capped

        limit = self.limit

        offset = self.offset

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "count_capped": count_capped,
                "limit": limit,
                "offset": offset,
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.explorer_row import ExplorerRow

        d = dict(src_dict)
        count = d.pop("count")

        count_capped = d.pop("count_capped")

        limit = d.pop("limit")

        offset = d.pop("offset")

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = ExplorerRow.from_dict(results_item_data)

            results.append(results_item)

        explorer_page = cls(
            count=count,
            count_capped=count_capped,
            limit=limit,
            offset=offset,
            results=results,
        )

        explorer_page.additional_properties = d
        return explorer_page

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
