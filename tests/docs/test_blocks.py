"""What the docs show without a server: every block is checked somehow, every command it names
exists and parses, JSON examples are what the importers read and the exports write, links land.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.docs.blocks import (
    LANGUAGES,
    REPO,
    SHELL,
    Block,
    all_blocks,
    blocks_in,
    commands,
    doc_files,
    split_command,
)
from tests.docs.commands import check

BLOCKS = all_blocks()
JSON_CHECKS = ("import", "export", "response", "params", "predictions")
TAGS = {"norun", *JSON_CHECKS}
EXAMPLE = REPO / "docs" / "examples" / "two_solutions.jsonl"


def of(lang: str | set[str], *tags: str) -> list[Block]:
    langs = {lang} if isinstance(lang, str) else lang
    return [b for b in BLOCKS if b.lang in langs and all(t in b.tags for t in tags)]


def ids(blocks: list[Block]) -> list[str]:
    return [b.where for b in blocks]


# --- inventory ---------------------------------------------------------------------------------


def test_every_block_says_how_it_is_checked() -> None:
    assert len(BLOCKS) > 40
    problems = []
    for block in BLOCKS:
        if block.lang not in LANGUAGES:
            problems.append(f"{block.where}: language {block.lang!r} (one of {sorted(LANGUAGES)})")
        if unknown := set(block.tags) - TAGS:
            problems.append(f"{block.where}: unknown tags {sorted(unknown)}")
        if block.lang == "json" and sum(t in block.tags for t in JSON_CHECKS) != 1:
            problems.append(f"{block.where}: a json block needs one of {JSON_CHECKS}")
        if block.lang in ("yaml", "text") and block.runs:
            problems.append(f"{block.where}: {block.lang} cannot run; mark it norun")
    assert not problems, "\n".join(problems)


def test_blocks_are_found_in_lists_and_must_be_closed(tmp_path: Path) -> None:
    doc = tmp_path / "x.md"
    doc.write_text("- item\n\n  ```sh norun\n  make run\n  ```\n\n```json response\n{}\n```\n")
    assert [(b.lang, b.tags, b.text) for b in blocks_in(doc)] == [
        ("sh", {"norun": ""}, "make run\n"),
        ("json", {"response": ""}, "{}\n"),
    ]
    doc.write_text("```sh\nmake run\n")
    with pytest.raises(AssertionError, match="unclosed code fence"):
        blocks_in(doc)


def test_the_readme_is_a_front_door() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 160
    assert "docs/img/label-page.png" in readme and (REPO / "docs/img/label-page.png").is_file()
    for page in ("annotators", "admins", "api", "ml", "operators", "benchmarks"):
        assert f"(docs/{page}.md" in readme, page


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return {slug(m) for m in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


@pytest.mark.parametrize("path", doc_files(), ids=[str(p.relative_to(REPO)) for p in doc_files()])
def test_links_land(path: Path) -> None:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    problems = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+://", target):
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists():
            problems.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{target}: no heading #{anchor} in {dest.relative_to(REPO)}")
    assert not problems, "\n".join(problems)


# --- commands ----------------------------------------------------------------------------------

SHELL_BLOCKS = of(SHELL)


@pytest.mark.parametrize("block", SHELL_BLOCKS, ids=ids(SHELL_BLOCKS))
def test_commands_exist_and_their_flags_parse(block: Block) -> None:
    named = []
    for command in commands(block.text):
        try:
            named.append(check(split_command(command)))
        except Exception as error:  # name the block and the line
            raise AssertionError(f"{block.where}: {command}\n{error}") from error
    assert named


def test_a_wrong_flag_or_name_fails_the_check() -> None:
    for command in (
        ".venv/bin/python manage.py autolabel --project P --sourcez answer",
        ".venv/bin/python manage.py no_such_command",
        ".venv/bin/python -m training.evaluate processbench x.jsonl --no-such-flag",
        ".venv/bin/python bench/label_quality.py --markdwn",
        "make no-such-target",
        "accelerate launch --config_file training/configs/nope.yaml -m training.train",
        "docker compose exec nosuchservice python manage.py migrate",
    ):
        with pytest.raises(Exception):  # noqa: B017, PT011
            check(split_command(command))
    assert check(split_command("make run test")) == "make"
    assert check(split_command("vllm serve x")) is None


PYTHON_NORUN = of("python", "norun")


@pytest.mark.parametrize("block", PYTHON_NORUN, ids=ids(PYTHON_NORUN))
def test_python_that_cannot_run_compiles_and_its_imports_exist(block: Block, monkeypatch) -> None:
    tree = ast.parse(block.text, block.where)
    monkeypatch.syspath_prepend(str(REPO / "examples"))
    imported = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = importlib.import_module(node.module or "")
            for alias in node.names:
                assert hasattr(module, alias.name), f"{block.where}: {node.module}.{alias.name}"
            imported += 1
        elif isinstance(node, ast.Import):
            for alias in node.names:
                importlib.import_module(alias.name)
            imported += 1
    assert imported
    sys.modules.pop("rl_reward", None)


# --- JSON --------------------------------------------------------------------------------------


def rows_of(block: Block) -> list[dict[str, Any]]:
    """One object over several lines, or one per line."""
    try:
        return [json.loads(block.text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in block.text.splitlines() if line.strip()]


IMPORTS = of("json", "import")


@pytest.mark.parametrize("block", IMPORTS, ids=ids(IMPORTS))
def test_import_examples_parse_as_their_format(block: Block, tmp_path: Path) -> None:
    from labeling.importers import open_rows

    fmt = block.tags["import"]
    path = tmp_path / "rows.jsonl"
    rows = rows_of(block)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with open_rows(path, fmt="auto", filename=path.name) as stream:
        parsed = list(stream)
        assert stream.format == fmt  # detected as the format it says
    assert len(parsed) == len(rows)
    for row, raw in zip(parsed, rows, strict=True):
        labels = [s.label for s in row.solutions[0].steps]
        if "labels" in raw:
            assert labels[: len(raw["labels"])] == raw["labels"]


PREDICTIONS = of("json", "predictions")


@pytest.mark.parametrize("block", PREDICTIONS, ids=ids(PREDICTIONS))
def test_predictions_examples_are_read_as_uploads(block: Block) -> None:
    """An uploaded predictions example (docs/predictions.md) reads as the upload would."""
    import io

    from labeling.importers.predictions import read_predictions

    array = block.text.lstrip().startswith("[")
    body = block.text if array else "".join(json.dumps(r) + "\n" for r in rows_of(block))
    lines = list(
        read_predictions(
            io.BytesIO(body.encode()),
            filename="example",
            kind="json" if array else "jsonl",
            max_lines=1000,
            max_bytes=1 << 20,
        )
    )
    assert lines and all(line.prediction.steps for line in lines)


PARAMS = of("json", "params")


@pytest.mark.parametrize("block", PARAMS, ids=ids(PARAMS))
def test_source_params_examples_are_valid(block: Block) -> None:
    from autolabel.completers.config import validate_backend
    from autolabel.engines import rollout
    from autolabel.engines.params import check_keys

    assert block.tags["params"] == "rollout"
    (params,) = rows_of(block)
    check_keys(params, rollout.PARAMS, engine="rollout")
    validate_backend(params["backend"])
    sampling = rollout.sampling_params(params, method=params["method"], tokenizer=None)
    assert sampling.n == params["n"] and sampling.max_tokens == params["max_tokens"]


# What each export example was made with, from docs/examples/two_solutions.jsonl.
EXPORT_OPTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "trl": ("trl", {"split_policy": {"mode": "none"}}),
    "trl-soft": ("trl", {"label_policy": {"soft_labels": True, "label_sources": True}}),
    "prm800k": ("prm800k", {"split_policy": {"mode": "none"}}),
    "math_shepherd": ("math_shepherd", {"split_policy": {"mode": "none"}}),
    "processbench": ("processbench", {"split_policy": {"mode": "none"}}),
    "pairwise": ("pairwise", {"split_policy": {"mode": "none"}}),
    "dense_rewards": ("dense_rewards", {"split_policy": {"mode": "none"}}),
    "openrlhf": ("openrlhf", {"split_policy": {"mode": "none"}}),
    "openrlhf-soft": (
        "openrlhf",
        {"label_policy": {"soft_labels": True}, "split_policy": {"mode": "none"}},
    ),
    # The tokenizer: tests/exports/conftest.py's chat_tokenizer_dir, trained on the example.
    "chat_template": (
        "chat_template",
        {
            "label_policy": {
                "tokenizer": "<made by the test>",
                "system_prompt": "Reason step by step.",
            },
            "split_policy": {"mode": "none"},
        },
    ),
    "trl-uses": (
        "trl",
        {
            "label_policy": {"dependency_policy": "inherit", "truncate_after_first_error": False},
            "split_policy": {"mode": "none"},
        },
    ),
}
EXPORTS = of("json", "export")


def test_every_export_format_has_an_example() -> None:
    from labeling.exporters import FORMATS

    assert {EXPORT_OPTIONS[b.tags["export"]][0] for b in EXPORTS} == set(FORMATS)


@pytest.mark.django_db
@pytest.mark.parametrize("block", EXPORTS, ids=ids(EXPORTS))
def test_export_examples_are_real_output(block: Block, tmp_path: Path) -> None:
    from labeling.services.exports.snapshots import export_build, export_create
    from labeling.services.imports import import_file
    from tests.exports.conftest import chat_tokenizer_dir, read_rows
    from tests.factories import ProjectFactory

    project = ProjectFactory()
    import_file(project=project, path=EXAMPLE, fmt="steplab", labels_as="annotations")
    fmt, options = EXPORT_OPTIONS[block.tags["export"]]
    if fmt == "chat_template":  # a tokenizer trained on the example's text, deterministically
        texts = [line for line in EXAMPLE.read_text(encoding="utf-8").splitlines()] * 10
        path = chat_tokenizer_dir(tmp_path / "tokenizer", texts)
        policy = {**options["label_policy"], "tokenizer": str(path)}
        options = {**options, "label_policy": policy}
    export = export_create(project=project, created_by=None, format=fmt, **options)
    export = export_build(export=export)
    assert export.status == "done", export.error
    real = read_rows(export)
    for row in real:
        row.pop("timestamp", None)
    for shown in rows_of(block):
        shown.pop("timestamp", None)
        assert shown in real, f"{block.where}: not in the export:\n{shown}\nreal: {real}"


# --- commands named in the prose ---------------------------------------------------------------


def inline_code(path: Path) -> list[str]:
    """The `code spans` of a page outside its fenced blocks, joined over line breaks."""
    text = re.sub(r"^ *(`{3,}).*?^ *\1", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    return re.findall(r"`([^`]+)`", re.sub(r"\n(?!\n)", " ", text))


def manage_options(name: str) -> set[str]:
    from django.core.management import get_commands, load_command_class

    from tests.docs.commands import parse_manage  # noqa: F401  (Django's command registry)

    command = load_command_class(get_commands()[name], name)
    return set(command.create_parser("manage.py", name)._option_string_actions)


@pytest.mark.parametrize("path", doc_files(), ids=[str(p.relative_to(REPO)) for p in doc_files()])
def test_commands_named_in_the_prose_exist(path: Path) -> None:
    """A synopsis (`manage.py import FILE [--format auto]`) cannot be parsed as a command, but
    its command, its flags, its make target or its script must exist."""
    from django.core.management import get_commands

    from tests.docs.commands import make_targets

    problems = []
    for span in inline_code(path):
        if manage := re.match(r"(?:\.venv/bin/python )?manage\.py (\w+)(.*)", span):
            name, rest = manage.groups()
            if name not in get_commands():
                problems.append(f"{span}: no manage.py command {name}")
                continue
            unknown = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", rest)) - manage_options(name)
            problems += [f"{span}: manage.py {name} has no {flag}" for flag in sorted(unknown)]
        make = re.fullmatch(r"make ([\w-]+)", span)
        if make and make[1] not in make_targets():
            problems.append(f"{span}: no make target")
        script = re.match(r"(bench/[\w/]+\.py)\b", span)
        if script and not (REPO / script[1]).is_file():
            problems.append(f"{span}: no such script")
    assert not problems, "\n".join(problems)
