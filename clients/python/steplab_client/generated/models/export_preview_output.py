from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.final_labels_output import FinalLabelsOutput


T = TypeVar("T", bound="ExportPreviewOutput")


@_attrs_define
class ExportPreviewOutput:
    """
    Attributes:
        label_source (str):
        solutions_labeled (int):
        solutions_unlabeled (int):
        solutions_read (int):
        partial (bool): The counts by origin cover only the first solutions_read solutions.
        final_labels (FinalLabelsOutput | None): label_source=final: solutions and steps by where their label came from
            (review, agreement, single annotator, machine) and those left out (tie, no_label); solutions.no_label includes
            the solutions_unlabeled. Null for the other sources.
    """

    label_source: str
    solutions_labeled: int
    solutions_unlabeled: int
    solutions_read: int
    partial: bool
    final_labels: FinalLabelsOutput | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.final_labels_output import FinalLabelsOutput

        label_source = self.label_source

        solutions_labeled = self.solutions_labeled

        solutions_unlabeled = self.solutions_unlabeled

        solutions_read = self.solutions_read

        partial = self.partial

        final_labels: dict[str, Any] | None
        if isinstance(self.final_labels, FinalLabelsOutput):
            final_labels = self.final_labels.to_dict()
        else:
            final_labels = self.final_labels

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "label_source": label_source,
                "solutions_labeled": solutions_labeled,
                "solutions_unlabeled": solutions_unlabeled,
                "solutions_read": solutions_read,
                "partial": partial,
                "final_labels": final_labels,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.final_labels_output import FinalLabelsOutput

        d = dict(src_dict)
        label_source = d.pop("label_source")

        solutions_labeled = d.pop("solutions_labeled")

        solutions_unlabeled = d.pop("solutions_unlabeled")

        solutions_read = d.pop("solutions_read")

        partial = d.pop("partial")

        def _parse_final_labels(data: object) -> FinalLabelsOutput | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                final_labels_type_1 = FinalLabelsOutput.from_dict(data)

                return final_labels_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FinalLabelsOutput | None, data)

        final_labels = _parse_final_labels(d.pop("final_labels"))

        export_preview_output = cls(
            label_source=label_source,
            solutions_labeled=solutions_labeled,
            solutions_unlabeled=solutions_unlabeled,
            solutions_read=solutions_read,
            partial=partial,
            final_labels=final_labels,
        )

        export_preview_output.additional_properties = d
        return export_preview_output

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
