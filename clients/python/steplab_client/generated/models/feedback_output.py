from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.comment_output import CommentOutput
    from ..models.review_action_output import ReviewActionOutput


T = TypeVar("T", bound="FeedbackOutput")


@_attrs_define
class FeedbackOutput:
    """
    Attributes:
        annotation_id (int):
        status (str):
        revises_id (int | None):
        rework_id (int | None):
        rework_status (None | str):
        reviews (list[ReviewActionOutput]):
        comments (list[CommentOutput]):
    """

    annotation_id: int
    status: str
    revises_id: int | None
    rework_id: int | None
    rework_status: None | str
    reviews: list[ReviewActionOutput]
    comments: list[CommentOutput]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        annotation_id = self.annotation_id

        status = self.status

        revises_id: int | None
        revises_id = self.revises_id

        rework_id: int | None
        rework_id = self.rework_id

        rework_status: None | str
        rework_status = self.rework_status

        reviews = []
        for reviews_item_data in self.reviews:
            reviews_item = reviews_item_data.to_dict()
            reviews.append(reviews_item)

        comments = []
        for comments_item_data in self.comments:
            comments_item = comments_item_data.to_dict()
            comments.append(comments_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "annotation_id": annotation_id,
                "status": status,
                "revises_id": revises_id,
                "rework_id": rework_id,
                "rework_status": rework_status,
                "reviews": reviews,
                "comments": comments,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.comment_output import CommentOutput
        from ..models.review_action_output import ReviewActionOutput

        d = dict(src_dict)
        annotation_id = d.pop("annotation_id")

        status = d.pop("status")

        def _parse_revises_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        revises_id = _parse_revises_id(d.pop("revises_id"))

        def _parse_rework_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rework_id = _parse_rework_id(d.pop("rework_id"))

        def _parse_rework_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rework_status = _parse_rework_status(d.pop("rework_status"))

        reviews = []
        _reviews = d.pop("reviews")
        for reviews_item_data in _reviews:
            reviews_item = ReviewActionOutput.from_dict(reviews_item_data)

            reviews.append(reviews_item)

        comments = []
        _comments = d.pop("comments")
        for comments_item_data in _comments:
            comments_item = CommentOutput.from_dict(comments_item_data)

            comments.append(comments_item)

        feedback_output = cls(
            annotation_id=annotation_id,
            status=status,
            revises_id=revises_id,
            rework_id=rework_id,
            rework_status=rework_status,
            reviews=reviews,
            comments=comments,
        )

        feedback_output.additional_properties = d
        return feedback_output

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
