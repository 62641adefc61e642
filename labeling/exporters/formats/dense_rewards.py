"""Dense per-step rewards for RL: one episode a row (embodied projects; any project works).

    {"episode_id": str, "task": str, "success": bool | null, "generator": str,
     "return": float, "length": int,
     "steps": [{"t": int, "kind": str | null, "obs": str, "action": str | null,
                "reward": float, "label": -1 | 0 | 1 | null, "done": bool,
                "success": bool | null, "timestamp": float | null, "images": [str]}, ...]}

`reward` is the step's resolved label mapped by REWARDS (−1 → −1.0, 0 → 0.0, +1 → +1.0;
an unlabeled step 0.0 with `label` null). `obs` is the text of the latest observation step
before this step (the task for the first steps), `action` the step's own text, null for an
observation step (what the environment said, not what the agent did). `done` is true on the
last step only; `success` is the step's logged signal and, at the top, the episode's outcome.
`return` is the sum of the rewards. Episodes whose steps carry no label at all are skipped
(counted as `no_labels`): a row of zeros would read as "neutral everywhere". Every step is
written whatever the label policy's truncation, since an RL episode is the whole trajectory.

With a `dependency_policy` other than "none", every step also has `uses` (the earlier steps
it uses, as their `t`) and `inherited` (made -1 by `inherit`: its `label` and `reward` are
-1 because it builds on a -1 step, directly or through others).
"""

from labeling.exporters.records import SolutionRecord

from .base import Format, Row

REWARDS = {-1: -1.0, 0: 0.0, 1: 1.0}


class DenseRewardsFormat(Format):
    name = "dense_rewards"
    needs_step_meta = True

    def feed(self, record: SolutionRecord, split: str | None) -> list[Row]:
        if all(step.rating is None for step in record.steps):
            self.stats.skipped["no_labels"] += 1
            return []
        obs = record.problem_text
        steps = []
        last = len(record.steps) - 1
        for t, step in enumerate(record.steps):
            meta = step.meta or {}
            kind = meta.get("kind")
            timestamp = meta.get("timestamp")
            success = meta.get("success")
            steps.append(
                {
                    "t": t,
                    "kind": kind if isinstance(kind, str) else None,
                    "obs": obs,
                    "action": None if kind == "observation" else step.text,
                    "reward": REWARDS.get(step.rating, 0.0) if step.rating is not None else 0.0,
                    "label": step.rating,
                    "done": t == last,
                    "success": success if isinstance(success, bool) else None,
                    "timestamp": float(timestamp)
                    if isinstance(timestamp, int | float) and not isinstance(timestamp, bool)
                    else None,
                    "images": list(step.images),
                    **self.step_dependencies(step),
                }
            )
            if kind == "observation":
                obs = step.text
            self.stats.step(step, None if step.rating is None else self.positive(step.rating))
        row: Row = {
            "episode_id": record.external_id or str(record.solution_id),
            "task": record.problem_text,
            "success": record.answer_correct,
            "generator": record.generator,
            "return": sum(s["reward"] for s in steps),
            "length": len(steps),
            "steps": steps,
        }
        self.stats.images += sum(len(s["images"]) for s in steps)
        self.count_row(record, split)
        return [self.with_split(row, split)]

    def schema(self):
        import pyarrow as pa

        step_fields = [
            pa.field("t", pa.int64()),
            pa.field("kind", pa.string()),
            pa.field("obs", pa.string()),
            pa.field("action", pa.string()),
            pa.field("reward", pa.float64()),
            pa.field("label", pa.int64()),
            pa.field("done", pa.bool_()),
            pa.field("success", pa.bool_()),
            pa.field("timestamp", pa.float64()),
            pa.field("images", pa.list_(pa.string())),
        ]
        step_fields += self.dependency_fields(per_step=True)
        step = pa.struct(step_fields)
        return pa.schema(
            [
                pa.field("episode_id", pa.string()),
                pa.field("task", pa.string()),
                pa.field("success", pa.bool_()),
                pa.field("generator", pa.string()),
                pa.field("return", pa.float64()),
                pa.field("length", pa.int64()),
                pa.field("steps", pa.list_(step)),
                *self.split_field(),
            ]
        )
