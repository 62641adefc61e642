"""Push a done export to a Hub dataset repo: Parquet per split, the card, a tag per export.

The repo is created private unless `private=False` (an existing repo keeps its visibility).
Each push is one commit that replaces the repo's data/ files with this export's, so the main
branch always holds one export whole, and the tag `export-<id>` keeps every pushed export
reachable by revision: `datasets.load_dataset(repo, revision="export-12")`.
"""

from __future__ import annotations

import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from labeling.models import Export, ExportStatus

from .connection import HubAuth, HubError, hub_api, hub_errors, repo_id_check
from .tables import export_table, split_tables

DATA_DIR = "data"


@dataclass(frozen=True)
class PushResult:
    repo_id: str
    revision: str
    tag: str
    url: str
    splits: dict[str, int]
    private: bool

    def as_dict(self) -> dict:
        return asdict(self)


def export_tag(export: Export) -> str:
    return f"export-{export.pk}"


def hub_card(export: Export, repo_id: str, splits: dict[str, int]) -> str:
    """The export's card with `configs` naming the pushed files, and how to load them."""
    from huggingface_hub import DatasetCard

    card = DatasetCard(export.card)
    card.data.configs = [
        {
            "config_name": "default",
            "data_files": [
                {"split": name, "path": f"{DATA_DIR}/{name}-*.parquet"} for name in splits
            ],
        }
    ]
    card.text = (
        card.text.rstrip()
        + "\n\n## On the Hub\n\n"
        + f'`datasets.load_dataset("{repo_id}", revision="{export_tag(export)}")` loads this '
        + "export; the main branch holds the latest one pushed.\n"
    )
    return str(card)


def export_push(
    *, export: Export, repo_id: str, auth: HubAuth | None = None, private: bool = True
) -> PushResult:
    """Push `export` (done) to the dataset repo `repo_id` with `auth` (default: the server's
    HF_TOKEN); return where it went."""
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete

    repo_id_check(repo_id)
    if export.status != ExportStatus.DONE or not export.file:
        raise HubError(f"Export {export.pk} is {export.status}: only a done export is pushed.")
    api = hub_api(auth)
    tag = export_tag(export)
    with tempfile.TemporaryDirectory(prefix="steplab-hub-") as tmp:
        tables = split_tables(export_table(export))
        operations, splits = [], {}
        for name, table in tables.items():
            path = Path(tmp) / f"{name}.parquet"
            _write_parquet(table, path)
            operations.append(
                CommitOperationAdd(f"{DATA_DIR}/{name}-00000-of-00001.parquet", str(path))
            )
            splits[name] = table.num_rows
        card = hub_card(export, repo_id, splits)
        operations.append(CommitOperationAdd("README.md", card.encode()))
        with hub_errors(repo_id, auth):
            api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
            ours = {op.path_in_repo for op in operations}
            stale = [
                CommitOperationDelete(path)
                for path in api.list_repo_files(repo_id, repo_type="dataset")
                if path.startswith(f"{DATA_DIR}/") and path not in ours
            ]
            commit = api.create_commit(
                repo_id,
                [*stale, *operations],
                commit_message=f"steplab export {export.pk} of {export.project.name}",
                repo_type="dataset",
            )
            tags = {ref.name for ref in api.list_repo_refs(repo_id, repo_type="dataset").tags}
            if tag not in tags:
                api.create_tag(repo_id, tag=tag, revision=commit.oid, repo_type="dataset")
            info = api.repo_info(repo_id, repo_type="dataset")
    return PushResult(
        repo_id=repo_id,
        revision=commit.oid,
        tag=tag,
        url=f"{api.endpoint}/datasets/{repo_id}",
        splits=splits,
        private=bool(info.private),
    )


def _write_parquet(table, path: Path) -> None:
    import pyarrow.parquet as pq

    pq.write_table(table, path, compression="zstd")
