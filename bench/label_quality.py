"""Label quality of the auto-label sources on labeled public data (issue 14).

    .venv/bin/python bench/label_quality.py                          # answer,symbolic,consensus
    .venv/bin/python bench/label_quality.py --limit 10 --sources symbolic
    .venv/bin/python bench/label_quality.py --markdown               # the README table
    .venv/bin/python bench/label_quality.py --json report.json
    .venv/bin/python bench/label_quality.py --calibrate              # autolabel/calibration/*.json
    .venv/bin/python bench/label_quality.py --sources symbolic --calibrate \
        --data ../shared/data/processbench_dev.jsonl --part develop    # symbolic's table
    .venv/bin/python bench/label_quality.py --sources subgoal --demo-images \\
        --data labeling/demo/embodied_demo.jsonl --markdown           # embodied episodes
    .venv/bin/python bench/label_quality.py --sources symbolic,judge,rollout,consensus \\
        --model /models/Qwen2.5-7B-Instruct --device cuda --calibrate  # a GPU, an open 7B model
    .venv/bin/python bench/label_quality.py --sources prm --prm runs/prm --calibrate \\
        --params '{"prm": {"model": "my-prm"}}'                      # a registered PRM's name
    .venv/bin/python bench/label_quality.py --sources prm --device cuda --markdown \\
        --prm /models/Qwen2.5-Math-PRM-7B --prm-convention qwen      # a public PRM (docs/ml.md)
    .venv/bin/python bench/label_quality.py --sources prm --prm-convention qwen \\
        --prm-url http://gpu:8000 --params '{"prm": {"model": "Qwen/Qwen2.5-Math-PRM-7B"}}'

Reads each --data file (ProcessBench, PRMBench, PRM800K raw or MR-MATH; default the public
samples in shared/data) through the importers' parsers, runs the sources on every solution
with the engine code the Celery workers run (autolabel/quality/runner.py: the same order,
consensus on what the others returned; no database), and prints per source and file:
ProcessBench first-error F1, precision and recall of −1 and +1 on steps whose truth is known,
the base rate of correct steps and the +1 margin over it, coverage, seconds per solution, a
calibration table and the answer verdicts. Metrics: autolabel/quality/metrics.py.

--model DIR (a checkpoint or GGUF file, through transformers) or --backend JSON (any
autolabel.completers backend, e.g. an OpenAI-compatible vLLM server) is the backend of the
judge and rollout sources; --prm DIR is the prm source's saved PRM (with neither judge nor
rollout chosen, --model DIR may name it); --prm-convention qwen | math-shepherd | seq-cls reads
it as that public PRM (autolabel/engines/prm_public.py), --prm-url URL asks a vLLM server for
it instead (its served name in --params' prm.model); --params JSON overrides any source's
params, as a run's would.
Consensus requires rollout and judge when either is chosen, else the chosen step sources.

--predictions FILE (JSON Lines or a .json array, the format POST /api/projects/<id>/predictions/
takes; docs/predictions.md) scores a team's own model's step labels: every name@version in
it is a source `prediction:<name>@<version>` of the report, matched to the --data solutions by
external id (`id`). --predictions-name/--predictions-version name lines that give none;
--predictions-threshold T makes a score-only step +1 at or above T, else −1. Consensus sees
the predictions as source `prediction` (--params '{"consensus": {"required": ["prediction",
"symbolic"]}}'), as a run does with uploaded ones.

--calibrate writes what was measured into autolabel/calibration/<source>.json (per agent, so
per engine version or model, and per verdict kind: how often right, out of n known steps, --on
what data; for rollout, judge and prm also the model's score mapped to how often its verdict
was right, in monotone score bins), which the engines read for their scores
(autolabel/calibration/__init__.py). --calibration-dir DIR (or $STEPLAB_CALIBRATION_DIR)
reads and writes the tables there instead. The agent is the key: a rollout or judge table
holds for the same backend (the completer id names the model and its weights' fingerprint),
a prm table for the same `model` name (a run passes the registered PrmModel's name; give it
in --params, else the agent is the path).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", nargs="+", type=Path, help="labeled JSONL files")
    parser.add_argument("--sources", default="answer,symbolic,consensus")
    parser.add_argument("--limit", type=int, help="first N solutions of each file")
    parser.add_argument(
        "--part",
        choices=("develop", "measure"),
        help="only the solutions of this part of the split by problem "
        "(autolabel/quality/dev_split.py; meant for processbench_dev.jsonl)",
    )
    parser.add_argument("--model", help="model dir or GGUF file for judge and rollout")
    parser.add_argument("--prm", help="saved PRM dir for the prm source (default --model)")
    parser.add_argument(
        "--prm-convention",
        choices=("steplab", "qwen", "math-shepherd", "seq-cls"),
        help="how the prm source reads its PRM (default steplab: one trained here)",
    )
    parser.add_argument("--prm-url", help="a vLLM server's base URL serving the public PRM")
    parser.add_argument("--device", default="cpu", help="with --model or --prm: cpu or cuda")
    parser.add_argument("--backend", type=json.loads, help="backend config (JSON)")
    parser.add_argument("--params", type=json.loads, default={}, help='{"source": {...}}')
    parser.add_argument("--markdown", action="store_true", help="print the Markdown tables")
    parser.add_argument("--json", type=Path, help="write the full report here")
    parser.add_argument("--progress", action="store_true", help="a line per solution (stderr)")
    parser.add_argument(
        "--demo-images",
        action="store_true",
        help="--data files are labeling/demo files: their images/<name>.png entries become "
        "data: URIs first, as load_demo does",
    )
    parser.add_argument(
        "--calibrate", action="store_true", help="write autolabel/calibration/<source>.json"
    )
    parser.add_argument(
        "--calibration-dir",
        type=Path,
        help="read and write the calibration tables here (default autolabel/calibration/)",
    )
    parser.add_argument(
        "--predictions", nargs="+", type=Path, help="uploaded-predictions files to score"
    )
    parser.add_argument("--predictions-name", default="", help="for lines without a name")
    parser.add_argument("--predictions-version", default="", help="for lines without one")
    parser.add_argument(
        "--predictions-threshold",
        type=float,
        help="a score-only step is +1 at or above this score, else -1",
    )
    parser.add_argument(
        "--on",
        help="with --calibrate: what the data is called in the UI (default: the public "
        "samples, or the file's name)",
    )
    return parser.parse_args(argv)


def source_params(args: argparse.Namespace) -> dict[str, dict]:
    params = {name: dict(p) for name, p in args.params.items()}
    backend = args.backend
    if args.model:
        backend = {"kind": "transformers", "path": args.model, "device": args.device}
    if backend:
        for name in ("judge", "rollout"):
            params.setdefault(name, {}).setdefault("backend", backend)
    sources = [s.strip() for s in args.sources.split(",")]
    # --model is the PRM only when it is no judge's or rollouts' model (a generator is no PRM).
    prm = args.prm or (args.model if not {"judge", "rollout"} & set(sources) else None)
    if "prm" in sources and (args.prm_convention or args.prm_url):
        own = params.setdefault("prm", {})
        own.setdefault("convention", args.prm_convention or "qwen")
        if args.prm_url:
            own.update(backend="vllm", url=args.prm_url)
    if prm and "prm" in sources and params.get("prm", {}).get("backend") != "vllm":
        params.setdefault("prm", {}).setdefault("path", prm)
        params["prm"].setdefault("device", args.device)
    return params


def data_name(files: list[Path] | None) -> str:
    if not files:
        return "the public samples (ProcessBench, PRMBench, PRM800K)"
    names = [f.stem.replace("_", " ") for f in files]
    return names[0] if len(names) == 1 else ", ".join(names)


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")
    if args.calibration_dir:  # the engines read their tables there too
        os.environ["STEPLAB_CALIBRATION_DIR"] = str(args.calibration_dir)
    import django

    django.setup()
    from autolabel import timeouts
    from autolabel.quality.harness import default_files, evaluate
    from autolabel.quality.markdown import domain_markdown, markdown

    timeouts.warm_up()
    sources = [s.strip() for s in args.sources.split(",") if s.strip()]
    done = 0

    def progress(solution) -> None:
        nonlocal done
        done += 1
        print(f"{done} {solution.ref}", file=sys.stderr, flush=True)

    files = args.data or default_files()
    if args.demo_images:
        import tempfile

        from labeling.management.commands.load_demo import _with_inline_images

        folder = Path(tempfile.mkdtemp(prefix="label-quality-"))
        files = [_with_inline_images(Path(f), folder) for f in files]
    predictions = None
    if args.predictions:
        from autolabel.quality.predictions import read_table

        predictions = read_table(
            args.predictions,
            name=args.predictions_name,
            version=args.predictions_version,
            threshold=args.predictions_threshold,
        )
    report = evaluate(
        files,
        sources,
        params=source_params(args),
        limit=args.limit,
        progress=progress if args.progress else None,
        part=args.part,
        predictions=predictions,
    )
    if report.get("predictions_unmatched"):
        print(
            f"{report['predictions_unmatched']} predicted solutions are not in --data",
            file=sys.stderr,
        )
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    if args.calibrate:
        from autolabel.calibration import tables_from_report, write_tables

        tables = tables_from_report(report, on=args.on or data_name(args.data))
        for path in write_tables(tables):
            print(f"wrote {path}", file=sys.stderr)
    if args.markdown:
        print(markdown(report))
        if per_domain := domain_markdown(report):  # files of several problem domains
            print("\n" + per_domain)
    else:
        print(json.dumps({s: r["all"] for s, r in report["results"].items()}, indent=1))
        print(f"({report['seconds']:.1f} s)")
    return report


if __name__ == "__main__":
    main()
