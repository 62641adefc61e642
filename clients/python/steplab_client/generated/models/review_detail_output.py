from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.comment_output import CommentOutput
    from ..models.history_output import HistoryOutput
    from ..models.resolution_output import ResolutionOutput
    from ..models.review_action_output import ReviewActionOutput
    from ..models.review_annotation_output import ReviewAnnotationOutput
    from ..models.review_problem import ReviewProblem
    from ..models.review_project import ReviewProject
    from ..models.review_solution import ReviewSolution
    from ..models.review_step_output import ReviewStepOutput


T = TypeVar("T", bound="ReviewDetailOutput")


@_attrs_define
class ReviewDetailOutput:
    """
    Attributes:
        solution (ReviewSolution):
        problem (ReviewProblem):
        project (ReviewProject):
        reasons (list[str]):
        annotators_submitted (int): Submitted annotations: 1 is its own state (nothing to agree with).
        annotations (list[ReviewAnnotationOutput]):
        steps (list[ReviewStepOutput]):
        resolution (None | ResolutionOutput):
        resolutions (list[ResolutionOutput]):
        comments (list[CommentOutput]):
        reviews (list[ReviewActionOutput]):
        history (list[HistoryOutput]):
    """

    solution: ReviewSolution
    problem: ReviewProblem
    project: ReviewProject
    reasons: list[str]
    annotators_submitted: int
    annotations: list[ReviewAnnotationOutput]
    steps: list[ReviewStepOutput]
    resolution: None | ResolutionOutput
    resolutions: list[ResolutionOutput]
    comments: list[CommentOutput]
    reviews: list[ReviewActionOutput]
    history: list[HistoryOutput]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.resolution_output import ResolutionOutput

        solution = self.solution.to_dict()

        problem = self.problem.to_dict()

        project = self.project.to_dict()

        reasons = self.reasons

        annotators_submitted = self.annotators_submitted

        annotations = []
        for annotations_item_data in self.annotations:
            annotations_item = annotations_item_data.to_dict()
            annotations.append(annotations_item)

        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)

        resolution: dict[str, Any] | None
        if isinstance(self.resolution, ResolutionOutput):
            resolution = self.resolution.to_dict()
        else:
            resolution = self.resolution

        resolutions = []
        for resolutions_item_data in self.resolutions:
            resolutions_item = resolutions_item_data.to_dict()
            resolutions.append(resolutions_item)

        comments = []
        for comments_item_data in self.comments:
            comments_item = comments_item_data.to_dict()
            comments.append(comments_item)

        reviews = []
        for reviews_item_data in self.reviews:
            reviews_item = reviews_item_data.to_dict()
            reviews.append(reviews_item)

        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "solution": solution,
                "problem": problem,
                "project": project,
                "reasons": reasons,
                "annotators_submitted": annotators_submitted,
                "annotations": annotations,
                "steps": steps,
                "resolution": resolution,
                "resolutions": resolutions,
                "comments": comments,
                "reviews": reviews,
                "history": history,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.comment_output import CommentOutput
        from ..models.history_output import HistoryOutput
        from ..models.resolution_output import ResolutionOutput
        from ..models.review_action_output import ReviewActionOutput
        from ..models.review_annotation_output import ReviewAnnotationOutput
        from ..models.review_problem import ReviewProblem
        from ..models.review_project import ReviewProject
        from ..models.review_solution import ReviewSolution
        from ..models.review_step_output import ReviewStepOutput

        d = dict(src_dict)
        solution = ReviewSolution.from_dict(d.pop("solution"))

        problem = ReviewProblem.from_dict(d.pop("problem"))

        project = ReviewProject.from_dict(d.pop("project"))

        reasons = cast(list[str], d.pop("reasons"))

        annotators_submitted = d.pop("annotators_submitted")

        annotations = []
        _annotations = d.pop("annotations")
        for annotations_item_data in _annotations:
            annotations_item = ReviewAnnotationOutput.from_dict(annotations_item_data)

            annotations.append(annotations_item)

        steps = []
        _steps = d.pop("steps")
        for steps_item_data in _steps:
            steps_item = ReviewStepOutput.from_dict(steps_item_data)

            steps.append(steps_item)

        def _parse_resolution(data: object) -> None | ResolutionOutput:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                resolution_type_1 = ResolutionOutput.from_dict(data)

                return resolution_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ResolutionOutput, data)

        resolution = _parse_resolution(d.pop("resolution"))

        resolutions = []
        _resolutions = d.pop("resolutions")
        for resolutions_item_data in _resolutions:
            resolutions_item = ResolutionOutput.from_dict(resolutions_item_data)

            resolutions.append(resolutions_item)

        comments = []
        _comments = d.pop("comments")
        for comments_item_data in _comments:
            comments_item = CommentOutput.from_dict(comments_item_data)

            comments.append(comments_item)

        reviews = []
        _reviews = d.pop("reviews")
        for reviews_item_data in _reviews:
            reviews_item = ReviewActionOutput.from_dict(reviews_item_data)

            reviews.append(reviews_item)

        history = []
        _history = d.pop("history")
        for history_item_data in _history:
            history_item = HistoryOutput.from_dict(history_item_data)

            history.append(history_item)

        review_detail_output = cls(
            solution=solution,
            problem=problem,
            project=project,
            reasons=reasons,
            annotators_submitted=annotators_submitted,
            annotations=annotations,
            steps=steps,
            resolution=resolution,
            resolutions=resolutions,
            comments=comments,
            reviews=reviews,
            history=history,
        )

        review_detail_output.additional_properties = d
        return review_detail_output

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
