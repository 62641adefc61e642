"""The dataset card that ships with every export (Markdown with a Hugging Face YAML header).

It records what the export is: source project, options, counts, label distribution and
sources, split sizes, and the licences of the data it came from. It holds the export's
creation time, so it is not part of the sha256 (which covers the data file only).
"""

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

# Licences the public datasets steplab imports are published under, by solution source.
KNOWN_LICENCES = {
    "prm800k": "MIT (openai/prm800k)",
    "prm800k_mrmath": "MIT (PRM800K test solutions, via GAIR-NLP/ReasonEval)",
    "processbench": "Apache-2.0 (Qwen/ProcessBench)",
    "prmbench": "Apache-2.0 (ssmisya/PRMBench)",
    "gsm8k": "MIT (openai/grade-school-math)",
    "math": "MIT (hendrycks/math)",
    "math_shepherd": "not stated by the source (peiyi9979/Math-Shepherd)",
}
LICENCE_KEYS = ("license", "licence")
SPDX = {"MIT", "Apache-2.0", "CC-BY-4.0", "CC-BY-SA-4.0", "CC0-1.0"}


def licences_of(*, source: str, metadata: dict[str, Any]) -> dict[str, str]:
    """Licence fields of one solution: its dataset's published licence, and any licence
    key its imported metadata carries (steplab JSONL passes `metadata` through)."""
    found = {}
    if source in KNOWN_LICENCES:
        found[source] = KNOWN_LICENCES[source]
    for key in LICENCE_KEYS:
        value = metadata.get(key)
        if isinstance(value, str) and value:
            found[f"{source or 'steplab'}: metadata.{key}"] = value
    return found


@dataclass(frozen=True)
class CardInfo:
    export_id: int
    project_name: str
    project_id: int
    format: str
    file_type: str
    file_name: str
    sha256: str
    size_bytes: int
    created_at: datetime
    created_by: str
    options: dict[str, Any]
    stats: dict[str, Any]


def _yaml_licence(licences: dict[str, str]) -> str:
    names = {value.split(" ", 1)[0] for value in licences.values()}
    if len(names) == 1 and (name := names.pop()) in SPDX:
        return name.lower()
    return "other"


def _table(counts: dict[str, int], total: int | None = None) -> str:
    if not counts:
        return "(none)\n"
    lines = [
        "| value | count |" + (" share |" if total else ""),
        "|---|---:|" + ("---:|" if total else ""),
    ]
    for key, n in counts.items():
        share = f" {n / total:.1%} |" if total else ""
        lines.append(f"| {key} | {n} |{share}")
    return "\n".join(lines) + "\n"


def _images_line(stats: dict[str, Any], project_id: int) -> str:
    if not stats.get("images"):
        return ""
    return (
        f"\n- image references: {stats['images']} (the `images` column: the problem's images,"
        f" then the steps'; `/api/projects/{project_id}/media/<sha256>.<ext>`, served to the"
        " project's members, e.g. with an `Authorization: Token ...` header)"
    )


_ORIGIN_TEXT = {
    "review": "a reviewer's resolution",
    "agreement": "the annotators' majority (or a resolution they agreed on)",
    "single": "a single annotator",
    "machine": "a machine source (suggestions; only when asked)",
    "tie": "left out: the annotators tied",
    "no_label": "left out: no label",
}


def _final_section(stats: dict[str, Any]) -> str:
    """Where label_source=final took each label from (exporters/final.py), and what it left
    out and why; empty for the other sources."""
    final = stats.get("final_labels")
    if not final:
        return ""
    solutions, steps = final.get("solutions", {}), final.get("steps", {})
    lines = [
        "### Final labels: where they came from",
        "",
        "Per step: a reviewer's resolution, else the annotators' majority (a tie is left out),",
        "else a single annotator's label, else a machine label only when asked, else nothing."
        " A solution counts under the most authoritative origin among its steps.",
        "",
        "| origin | solutions | steps |",
        "|---|---:|---:|",
    ]
    for key, text in _ORIGIN_TEXT.items():
        lines.append(f"| {key}: {text} | {solutions.get(key, 0)} | {steps.get(key, 0)} |")
    return "\n".join(lines) + "\n\n"


def _decontaminated_section(stats: dict[str, Any]) -> str:
    """The benchmarks the export was decontaminated against and what each took out."""
    sets = stats.get("decontaminated")
    if not sets:
        return ""
    lines = [
        "### Decontamination",
        "",
        "Problems equal to a benchmark problem after normalization, or near-duplicates of one",
        "(a reworded copy), were left out with all their solutions.",
        "",
        "| benchmark | problems left out | solutions left out |",
        "|---|---:|---:|",
    ]
    for name, counts in sets.items():
        lines.append(f"| {name} | {counts['problems']} | {counts['solutions']} |")
    return "\n".join(lines) + "\n\n"


def render_card(info: CardInfo) -> str:
    stats = info.stats
    data_files = info.file_name
    kind = "parquet" if info.file_type == "parquet" else "json"
    labels_total = sum(stats.get("labels", {}).values())
    splits = stats.get("split_rows", {})
    problems = stats.get("split_problems", {})
    split_lines = "\n".join(
        f"| {name} | {n} | {problems.get(name, '')} |" for name, n in splits.items()
    )
    licences = stats.get("licences", {})
    licence_lines = (
        "\n".join(f"- {source}: {value}" for source, value in licences.items())
        or "- none recorded in the imported data"
    )
    options = json.dumps(info.options, indent=2, sort_keys=True, ensure_ascii=False)
    return f"""---
license: {_yaml_licence(licences)}
tags:
- process-reward-model
- steplab
configs:
- config_name: default
  data_files: "{data_files}"
---

# {info.project_name}: {info.format} export {info.export_id}

Step-level labels exported by steplab from project **{info.project_name}**
(id {info.project_id}) in the **{info.format}** layout as **{info.file_type}**.

- file: `{info.file_name}`, {info.size_bytes} bytes
- sha256 of the data file: `{info.sha256}` (the card is not hashed: it holds the time)
- created {info.created_at.isoformat()} by {info.created_by or "the command line"}
- load it: `datasets.load_dataset("{kind}", data_files="{info.file_name}")`

## Counts

- solutions read: {stats.get("solutions_read", 0)}
- rows: {stats.get("rows", 0)}
- steps written: {stats.get("steps", 0)}{_images_line(stats, info.project_id)}

### Splits (by a hash of the problem: no problem, nor near-duplicates, in two splits)

| split | rows | problems |
|---|---:|---:|
{split_lines}

### Training labels

{_table(stats.get("labels", {}), labels_total)}
### Ratings of the written steps (−1 / 0 / +1 / null)

{_table(stats.get("ratings", {}))}
{_final_section(stats)}### Label sources

{_table(stats.get("label_sources", {}))}
### Problem sources

{_table(stats.get("problem_sources", {}))}
### Left out

{_table(stats.get("skipped", {}))}
{_decontaminated_section(stats)}## Licences of the source data

{licence_lines}

## Options

```json
{options}
```
"""
