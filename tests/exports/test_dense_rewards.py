"""The dense_rewards format: one episode a row, per-step rewards from the labels, read back the
way an RL loader reads it (D4RL / Minari-style arrays of observations, actions, rewards and
terminals)."""

import json

import pytest

from labeling.exporters.formats.dense_rewards import REWARDS
from labeling.management.commands.load_demo import DEMO_DIR, _with_inline_images
from labeling.services.imports import import_file
from tests.exports.conftest import read_rows
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def project(db):
    return ProjectFactory(domain="embodied", name="Episodes")


@pytest.fixture
def episodes(project, tmp_path):
    """The demo episodes with their labels imported as annotations."""
    path = _with_inline_images(DEMO_DIR / "embodied_demo.jsonl", tmp_path)
    import_file(project=project, path=path, fmt="embodied", labels_as="annotations")
    return [json.loads(line) for line in (DEMO_DIR / "embodied_demo.jsonl").open()]


def rl_arrays(row: dict) -> dict:
    """What an offline-RL loader keeps of one episode: the agent's own steps (an observation
    step is the environment talking) as parallel arrays, D4RL's names."""
    import numpy as np

    acting = [s for s in row["steps"] if s["action"] is not None]
    return {
        "observations": [s["obs"] for s in acting],
        "actions": [s["action"] for s in acting],
        "rewards": np.array([s["reward"] for s in acting], dtype=np.float32),
        "terminals": np.array([s["done"] for s in row["steps"] if s["action"] is not None]),
        "success": row["success"],
    }


def test_every_episode_is_a_row_with_a_reward_per_step(episodes, build):
    export = build("dense_rewards", filters={"label_source": "annotations"})
    rows = {r["episode_id"]: r for r in read_rows(export)}
    assert set(rows) == {e["id"] for e in episodes}
    for episode in episodes:
        row = rows[episode["id"]]
        assert row["task"] == episode["task"] and row["success"] is episode["success"]
        assert row["length"] == len(episode["steps"]) == len(row["steps"])
        assert [s["label"] for s in row["steps"]] == episode["labels"]
        assert [s["reward"] for s in row["steps"]] == [REWARDS[v] for v in episode["labels"]]
        assert row["return"] == sum(REWARDS[v] for v in episode["labels"])
        assert [s["done"] for s in row["steps"]] == [False] * (row["length"] - 1) + [True]
        assert [s["kind"] for s in row["steps"]] == [s["kind"] for s in episode["steps"]]
        assert [s["success"] for s in row["steps"]] == [s.get("success") for s in episode["steps"]]
        assert [s["timestamp"] for s in row["steps"]] == [
            s.get("timestamp") for s in episode["steps"]
        ]
    slip = rows["ep-mug-drawer-2"]["steps"]
    assert slip[2]["action"] == "grasp(mug) with a top-down pinch on the rim"
    assert slip[2]["reward"] == -1.0 and slip[2]["success"] is False
    assert slip[3]["action"] is None  # the observation after it
    assert slip[4]["obs"] == episode_step(episodes, "ep-mug-drawer-2", 3)  # the latest observation
    assert slip[0]["obs"] == rows["ep-mug-drawer-2"]["task"]
    # Frames go out as the API paths that serve them to members.
    assert slip[2]["images"][0].startswith(f"/api/projects/{export.project_id}/media/")
    assert export.stats["images"] >= 5


def episode_step(episodes, episode_id, index):
    return next(e for e in episodes if e["id"] == episode_id)["steps"][index]["text"]


def test_an_rl_loader_reads_it_back_from_jsonl_and_parquet(episodes, build):
    jsonl = read_rows(build("dense_rewards", filters={"label_source": "annotations"}))
    parquet = read_rows(
        build("dense_rewards", file_type="parquet", filters={"label_source": "annotations"})
    )
    assert jsonl == parquet
    data = {r["episode_id"]: rl_arrays(r) for r in jsonl}
    towel = data["ep-towel-1"]
    assert towel["actions"][0].startswith("Plan:")
    assert towel["rewards"].tolist() == [1.0, -1.0, -1.0, -1.0, -1.0]
    assert towel["terminals"].tolist() == [False, False, False, False, True]
    assert towel["success"] is False
    assert data["ep-cup-sink-1"]["rewards"].sum() == 8.0


def test_unlabeled_episodes_are_skipped_and_unlabeled_steps_get_zero(project, build, tmp_path):
    path = tmp_path / "e.jsonl"
    rows = [
        {"id": "a", "task": "t", "steps": [{"kind": "action", "text": "x"}]},
        {
            "id": "b",
            "task": "t",
            "steps": [{"kind": "action", "text": "x"}, {"kind": "action", "text": "y"}],
            "labels": [-1],
        },
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    import_file(project=project, path=path, fmt="embodied", labels_as="annotations")
    export = build("dense_rewards", filters={"label_source": "annotations"})
    [row] = read_rows(export)
    assert row["episode_id"] == "b"
    assert [(s["label"], s["reward"]) for s in row["steps"]] == [(-1, -1.0), (None, 0.0)]
    assert export.row_count == 1  # "a" has no label from this source: no row of zeros
    parquet = build("dense_rewards", file_type="parquet", filters={"label_source": "annotations"})
    assert read_rows(parquet) == [row]  # null labels, signals and times survive Parquet


def test_other_formats_do_not_read_step_metadata(episodes, build):
    # The step query reads the whole metadata only for formats that ask (needs_step_meta).
    from labeling.exporters.formats import FORMATS

    assert [name for name, cls in FORMATS.items() if cls.needs_step_meta] == ["dense_rewards"]
    rows = read_rows(build("trl", filters={"label_source": "annotations"}))
    assert rows and all(set(r) == {"prompt", "completions", "labels", "split"} for r in rows)
