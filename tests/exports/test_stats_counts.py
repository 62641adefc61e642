"""Stats.steps_of counts a row's steps by kind and folds them into the card's counters when
they are read: the same counts as one step at a time, read any number of times."""

from labeling.exporters.formats.base import Stats
from labeling.exporters.records import StepRecord


def _steps() -> list[tuple[StepRecord, bool | None]]:
    return [
        (StepRecord(0, "a", rating=1, source="imported"), True),
        (StepRecord(1, "b", rating=0, source="human"), False),
        (StepRecord(2, "c", rating=-1, source="rollout:mc"), False),
        (StepRecord(3, "d", rating=None, human_written=True), None),
        (StepRecord(4, "e", rating=None), None),
        (StepRecord(5, "f", rating=2, source="imported"), True),
    ]


def _one_at_a_time(steps: list[tuple[StepRecord, bool | None]]) -> dict:
    ratings: dict[str, int] = {}
    labels: dict[str, int] = {}
    sources: dict[str, int] = {}
    for step, label in steps:
        key = "null" if step.rating is None else str(step.rating)
        ratings[key] = ratings.get(key, 0) + 1
        if label is not None:
            name = "positive" if label else "negative"
            labels[name] = labels.get(name, 0) + 1
        source = step.source or ("human_written" if step.human_written else "none")
        sources[source] = sources.get(source, 0) + 1
    return {
        "ratings": dict(sorted(ratings.items())),
        "labels": dict(sorted(labels.items())),
        "label_sources": dict(sorted(sources.items())),
    }


def test_steps_of_counts_as_one_step_at_a_time_and_reads_twice_the_same():
    stats = Stats()
    rows = [_steps(), _steps()[:3], _steps()[3:]]
    for row in rows:
        stats.steps_of(row)
    stats.step(*_steps()[0])
    stats.labels.update(("positive", "negative"))  # what the pairwise format adds itself
    expected = _one_at_a_time([pair for row in rows for pair in row] + [_steps()[0]])
    expected["labels"]["positive"] += 1
    expected["labels"]["negative"] += 1
    first = stats.as_dict()
    assert {key: first[key] for key in expected} == expected
    assert first["steps"] == 13
    assert stats.as_dict() == first  # folding twice does not count twice
    stats.steps_of(_steps()[:1])
    assert stats.as_dict()["ratings"]["1"] == expected["ratings"]["1"] + 1
