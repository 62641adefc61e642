from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.annotation_output import AnnotationOutput
    from ..models.problem_output import ProblemOutput
    from ..models.rework_output import ReworkOutput
    from ..models.solution_output import SolutionOutput
    from ..models.task_project_output import TaskProjectOutput


T = TypeVar("T", bound="TaskOutput")


@_attrs_define
class TaskOutput:
    """
    Attributes:
        annotation (AnnotationOutput):
        solution (SolutionOutput):
        problem (ProblemOutput):
        lock_expires_at (datetime.datetime | None):
        rework (None | ReworkOutput): Set when a reviewer sent this back.
        project (TaskProjectOutput):
    """

    annotation: AnnotationOutput
    solution: SolutionOutput
    problem: ProblemOutput
    lock_expires_at: datetime.datetime | None
    rework: None | ReworkOutput
    project: TaskProjectOutput
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.rework_output import ReworkOutput

        annotation = self.annotation.to_dict()

        solution = self.solution.to_dict()

        problem = self.problem.to_dict()

        lock_expires_at: None | str
        if isinstance(self.lock_expires_at, datetime.datetime):
            lock_expires_at = self.lock_expires_at.isoformat()
        else:
            lock_expires_at = self.lock_expires_at

        rework: dict[str, Any] | None
        if isinstance(self.rework, ReworkOutput):
            rework = self.rework.to_dict()
        else:
            rework = self.rework

        project = self.project.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "annotation": annotation,
                "solution": solution,
                "problem": problem,
                "lock_expires_at": lock_expires_at,
                "rework": rework,
                "project": project,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.annotation_output import AnnotationOutput
        from ..models.problem_output import ProblemOutput
        from ..models.rework_output import ReworkOutput
        from ..models.solution_output import SolutionOutput
        from ..models.task_project_output import TaskProjectOutput

        d = dict(src_dict)
        annotation = AnnotationOutput.from_dict(d.pop("annotation"))

        solution = SolutionOutput.from_dict(d.pop("solution"))

        problem = ProblemOutput.from_dict(d.pop("problem"))

        def _parse_lock_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                lock_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return lock_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        lock_expires_at = _parse_lock_expires_at(d.pop("lock_expires_at"))

        def _parse_rework(data: object) -> None | ReworkOutput:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rework_type_1 = ReworkOutput.from_dict(data)

                return rework_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReworkOutput, data)

        rework = _parse_rework(d.pop("rework"))

        project = TaskProjectOutput.from_dict(d.pop("project"))

        task_output = cls(
            annotation=annotation,
            solution=solution,
            problem=problem,
            lock_expires_at=lock_expires_at,
            rework=rework,
            project=project,
        )

        task_output.additional_properties = d
        return task_output

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
