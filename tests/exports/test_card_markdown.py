"""The dataset card renders as the Markdown it means to be (on the Hub and in the Export tab)."""

import re

from labeling.services.exports.snapshots import export_build, export_create
from tests.exports.conftest import steplab_file


def test_no_prose_line_starts_like_a_list_item(project, tmp_path):
    from labeling.services.imports import import_file

    import_file(
        project=project,
        path=steplab_file(tmp_path / "s.jsonl", 4),
        fmt="steplab",
        labels_as="annotations",
    )
    export = export_build(export=export_create(project=project, created_by=None, format="trl"))
    body = export.card.split("\n---\n", 1)[1]  # after the YAML front matter
    # A wrapped line starting "12) in the ..." would render as an ordered list item.
    assert f"(id {project.pk})" in body
    prose = [line for line in body.splitlines() if not line.startswith(("- ", "|", "#", "`"))]
    assert not [line for line in prose if re.match(r"\s*\d+[.)]\s", line)]
