import json

import pytest

from tests.factories import ProjectFactory, SolutionFactory


def jsonl(rows: list) -> bytes:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows).encode()


@pytest.fixture
def solutions(db):
    """A project with three solutions of four steps, ids s0..s2; and another project's s0."""
    project = ProjectFactory(name="Preds")
    made = [
        SolutionFactory(problem__project=project, external_id=f"s{i}", steps=4) for i in range(3)
    ]
    other = SolutionFactory(external_id="s0", steps=4)
    return {"project": project, "solutions": made, "other": other}
