"""The chat_template format: rows rendered with a tokenizer's chat template, the separators'
token positions and the labels, read back with the same tokenizer."""

from pathlib import Path

import pytest
from rest_framework.test import APIClient

from bench.bpe_tokenizer import train_byte_level_bpe
from labeling.models import Export, Suggestion
from tests.exports.conftest import annotate, chat_tokenizer_dir, read_rows
from tests.factories import MembershipFactory, SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def tokenizer_dir(tmp_path_factory) -> Path:
    """A byte-level BPE with a Qwen-style chat template and <extra_0>, saved like a model's."""
    texts = ["What is 2+2? 2+2 = 4. So 4. 2+2 = 5. So 5. Done. user assistant system"] * 20
    return chat_tokenizer_dir(tmp_path_factory.mktemp("tokenizer"), texts)


@pytest.fixture
def labeled(project):
    user = UserFactory(username="alice")
    good = SolutionFactory(
        problem__project=project, problem__text="What is 2+2?", steps=["2+2 = 4.", "So 4."]
    )
    bad = SolutionFactory(problem=good.problem, steps=["2+2 = 5.", "So 5.", "Done."])
    annotate(good, user, [1, 1])
    annotate(bad, user, [1, -1, None])
    return good, bad


def test_separators_sit_at_the_label_positions_and_labels_round_trip(labeled, build, tokenizer_dir):
    from transformers import AutoTokenizer

    export = build(
        "chat_template",
        label_policy={"tokenizer": str(tokenizer_dir), "system_prompt": "Reason step by step."},
        split_policy={"mode": "none"},
    )
    rows = read_rows(export)
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)  # the trainer's own copy
    separator = tokenizer.convert_tokens_to_ids("<extra_0>")
    got = []
    for row in rows:
        assert set(row) == {"text", "label_positions", "labels"}
        ids = tokenizer(row["text"], add_special_tokens=False)["input_ids"]
        assert [k for k, i in enumerate(ids) if i == separator] == row["label_positions"]
        assert len(row["labels"]) == len(row["label_positions"])
        # The text before each separator ends with its step: labels aligned with the steps.
        steps = []
        start = row["text"].index("<|im_start|>assistant\n") + len("<|im_start|>assistant\n")
        for k in row["label_positions"]:
            before = tokenizer.decode(ids[:k])
            steps.append(before[start:].split("<extra_0>")[-1])
        got.append(list(zip(steps, row["labels"], strict=True)))
        assert row["text"].startswith("<|im_start|>system\nReason step by step.<|im_end|>\n")
        assert "<|im_start|>user\nWhat is 2+2?<|im_end|>" in row["text"]
    assert sorted(got) == [
        [("2+2 = 4.", True), ("So 4.", True)],
        [("2+2 = 5.", True), ("So 5.", False)],
    ]


def test_soft_labels_and_parquet(project, build, tokenizer_dir):
    solution = SolutionFactory(problem__project=project, steps=["a", "b"])
    first, second = solution.steps.order_by("index")
    Suggestion.objects.create(
        step=first, source="rollout", agent="mc", value=1, evidence={"correct": 6, "total": 8}
    )
    Suggestion.objects.create(
        step=second, source="rollout", agent="mc", value=-1, evidence={"correct": 1, "total": 8}
    )
    export = build(
        "chat_template",
        file_type="parquet",
        filters={"label_source": "auto_any", "auto_sources": ["rollout"]},
        label_policy={"tokenizer": str(tokenizer_dir), "soft_labels": True},
        split_policy={"mode": "none"},
    )
    (row,) = read_rows(export)
    assert row["labels"] == [True, False] and row["soft_labels"] == [0.75, 0.125]
    assert "system" not in row["text"]  # no system prompt given, no system turn
    assert len(row["label_positions"]) == 2


def test_a_step_containing_the_separator_is_left_out(project, build, tokenizer_dir):
    user = UserFactory(username="bob")
    annotate(SolutionFactory(problem__project=project, steps=["x <extra_0> y"]), user, [1])
    annotate(SolutionFactory(problem__project=project, steps=["fine"]), user, [1])
    export = build(
        "chat_template",
        label_policy={"tokenizer": str(tokenizer_dir)},
        split_policy={"mode": "none"},
    )
    assert len(read_rows(export)) == 1
    assert export.stats["skipped"] == {"separator_in_text": 1}


def test_a_bad_tokenizer_is_a_400_at_creation_and_nothing_is_stored(
    project, tokenizer_dir, tmp_path, settings
):
    settings.MODEL_DIRS = [str(tmp_path), str(tokenizer_dir)]  # the operator's model directories
    admin = UserFactory()
    MembershipFactory(project=project, user=admin, role="admin")
    client = APIClient()
    client.force_authenticate(admin)
    url = f"/api/projects/{project.pk}/exports/"
    plain = train_byte_level_bpe(["abc"] * 5, vocab_size=260, special_tokens=["<extra_0>"])
    plain.save_pretrained(tmp_path / "no-template")
    cases = [
        ({}, "label_policy.tokenizer is required"),
        ({"tokenizer": str(tmp_path / "missing")}, "no directory"),
        ({"tokenizer": str(tmp_path)}, "cannot load"),  # a directory without tokenizer files
        ({"tokenizer": "no-such-org/no-such-model"}, "cannot load"),
        ({"tokenizer": str(tmp_path / "no-template")}, "has no chat template"),
        ({"tokenizer": str(tokenizer_dir), "step_separator": "<extra_1>"}, "single token"),
        ({"tokenizer": "x" * 301}, "tokenizer"),
    ]
    for policy, message in cases:
        body = {"format": "chat_template", "label_policy": policy}
        response = client.post(url, body, "json")
        assert response.status_code == 400, (policy, response.content)
        error = response.json()["error"]
        assert error["code"] == "validation_error" and message in error["message"], error
    assert not Export.objects.exists()
    ok = client.post(
        url, {"format": "chat_template", "label_policy": {"tokenizer": str(tokenizer_dir)}}, "json"
    )
    assert ok.status_code == 202, ok.content
    assert ok.json()["label_policy"]["step_separator"] == "<extra_0>"


def test_the_export_command_takes_the_tokenizer(labeled, project, tokenizer_dir, tmp_path):
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="label_policy.tokenizer is required"):
        call_command(
            "export", "--project", project.name, "--format", "chat_template",
            "--output", str(tmp_path),
        )  # fmt: skip
    call_command(
        "export", "--project", project.name, "--format", "chat_template", "--no-split",
        "--tokenizer", str(tokenizer_dir), "--output", str(tmp_path / "out"), "--no-progress",
    )  # fmt: skip
    export = Export.objects.get()
    assert export.label_policy["tokenizer"] == str(tokenizer_dir)
    assert export.row_count == 2


def test_a_project_admin_names_no_server_path_as_the_tokenizer(project, tokenizer_dir, settings):
    """The server loads the tokenizer (from_pretrained, in the web process and the worker): a
    non-staff user's path must lie under MODEL_DIRS (training_runs.model_refs), and the refusal
    is the same whether the path exists; a relative directory is not a Hub name. Staff may name
    any directory."""
    settings.MODEL_DIRS = [str(tokenizer_dir.parent / "operator-models")]
    admin = UserFactory()
    MembershipFactory(project=project, user=admin, role="admin")
    client = APIClient()
    client.force_authenticate(admin)
    url = f"/api/projects/{project.pk}/exports/"
    messages = []
    for name in (str(tokenizer_dir), "/etc", "/no/such/dir", "labeling/exporters", "../x", "~"):
        body = {"format": "chat_template", "label_policy": {"tokenizer": name}}
        response = client.post(url, body, "json")
        assert response.status_code == 400, (name, response.content)
        error = response.json()["error"]
        assert error["details"]["field"] == "label_policy.tokenizer", error
        assert "MODEL_DIRS" in error["message"], error
        messages.append(error["message"].replace(name, "NAME"))
    assert len(set(messages[:3])) == 1  # existing or not: the same words
    assert not Export.objects.exists()
    admin.is_staff = True
    admin.save()
    body = {"format": "chat_template", "label_policy": {"tokenizer": str(tokenizer_dir)}}
    assert client.post(url, body, "json").status_code == 202
