from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.explorer_bulk_result_skipped import ExplorerBulkResultSkipped


T = TypeVar("T", bound="ExplorerBulkResult")


@_attrs_define
class ExplorerBulkResult:
    """
    Attributes:
        action (str):
        matched (int):
        changed (int):
        reopened (int): Of `changed`, complete solutions a requeue reopened for one more label (their own overlap raised
            by one); 0 for the other actions.
        skipped (ExplorerBulkResultSkipped): Solutions left as they were, per reason.
    """

    action: str
    matched: int
    changed: int
    reopened: int
    skipped: ExplorerBulkResultSkipped
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        matched = self.matched

        changed = self.changed

        reopened = self.reopened

        skipped = self.skipped.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "matched": matched,
                "changed": changed,
                "reopened": reopened,
                "skipped": skipped,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.explorer_bulk_result_skipped import ExplorerBulkResultSkipped

        d = dict(src_dict)
        action = d.pop("action")

        matched = d.pop("matched")

        changed = d.pop("changed")

        reopened = d.pop("reopened")

        skipped = ExplorerBulkResultSkipped.from_dict(d.pop("skipped"))

        explorer_bulk_result = cls(
            action=action,
            matched=matched,
            changed=changed,
            reopened=reopened,
            skipped=skipped,
        )

        explorer_bulk_result.additional_properties = d
        return explorer_bulk_result

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
