r"""Run PRM-guided beam search over problems, optionally against best-of-N and majority vote.

    python -m autolabel.search PROBLEMS.jsonl (--prm PRM_DIR | --reward-url URL) \
        --policy '{"kind": "transformers", "path": "/models/policy"}' \
        [--beam-width 4] [--expansions 4] [--max-depth 12] [--aggregate last|min|product] \
        [--temperature 0.7] [--max-step-tokens 256] [--separator '\n'] [--seed 0] \
        [--compare] [--tokenizer DIR] [--limit N] [--out report.json]

PROBLEMS.jsonl rows: ``{"problem": ..., "answer": ...}`` (or ``gold``; ``id`` optional).
``--policy`` is a completer backend config (autolabel.completers.config: transformers, openai
or scripted). Generated tokens are counted with the policy's tokenizer, else ``--tokenizer``,
else as whitespace words (the report names the counter).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from training.data import DataError, read_objects

from .beam import AGGREGATIONS, SearchConfig, beam_search, token_counter
from .compare import SearchProblem, compare, default_grade


def read_problems(path: Path, limit: int | None = None) -> list[SearchProblem]:
    problems = []
    for where, row in read_objects(path):
        if not isinstance(row, dict):
            raise DataError(f"{where}: an object expected")
        if not isinstance(row.get("problem"), str) or not row["problem"].strip():
            raise DataError(f"{where}: field 'problem': a non-empty string expected")
        gold = row.get("answer", row.get("gold"))
        if gold is None:
            raise DataError(f"{where}: field 'answer' (or 'gold'): missing")
        key = str(row.get("id", len(problems)))
        problems.append(SearchProblem(key, row["problem"], str(gold)))
        if limit and len(problems) >= limit:
            break
    return problems


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m autolabel.search", description=__doc__)
    parser.add_argument("problems", type=Path)
    scorer = parser.add_mutually_exclusive_group(required=True)
    scorer.add_argument("--prm", help="trained PRM directory")
    scorer.add_argument("--reward-url", help="a reward server (python -m training.serve)")
    parser.add_argument("--policy", required=True, help="completer backend config (JSON)")
    parser.add_argument("--beam-width", type=int, default=4)
    parser.add_argument("--expansions", type=int, default=4)
    parser.add_argument("--max-depth", type=int, default=12)
    parser.add_argument("--aggregate", choices=sorted(AGGREGATIONS), default="last")
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--top-p", type=float, default=1.0)
    parser.add_argument("--max-step-tokens", type=int, default=256)
    parser.add_argument("--separator", default="\n", help=r"step separator (escapes like \n)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compare", action="store_true", help="also best-of-N / majority")
    parser.add_argument("--tokenizer", help="tokenizer directory to count generated tokens")
    parser.add_argument("--prm-batch-size", type=int, default=8)
    parser.add_argument("--device", default=None, help="PRM device (default: cuda if any)")
    parser.add_argument("--limit", type=int, help="first N problems only")
    parser.add_argument("--out", type=Path, help="write the report (JSON) here too")
    return parser


def run(args: argparse.Namespace) -> dict[str, Any]:
    from autolabel.completers import completer_from_config
    from training.scorers import load_scorer

    from .remote import RemoteScorer

    problems = read_problems(args.problems, args.limit)
    if not problems:
        raise DataError(f"{args.problems}: no problems")
    config = SearchConfig(
        beam_width=args.beam_width,
        expansions=args.expansions,
        max_depth=args.max_depth,
        aggregate=args.aggregate,
        temperature=args.temperature,
        top_p=args.top_p,
        max_step_tokens=args.max_step_tokens,
        separator=args.separator.encode().decode("unicode_escape"),
        seed=args.seed,
    )
    completer = completer_from_config(json.loads(args.policy), gold=problems[0].gold)
    if args.reward_url:
        scorer = RemoteScorer(args.reward_url)
    else:
        scorer = load_scorer(args.prm, device=args.device, batch_size=args.prm_batch_size)
    if args.tokenizer:
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(args.tokenizer)
    else:
        tokenizer = getattr(completer, "tokenizer", None)
    count, counter_name = token_counter(tokenizer)
    if args.compare:
        return compare(
            problems, completer, scorer, config, count_tokens=count, token_counter=counter_name
        )
    rows = []
    for p in problems:
        result = beam_search(p.problem, completer, scorer, config, count_tokens=count)
        rows.append(
            {"id": p.id, **result.as_dict(), "correct": default_grade(result.answer, p.gold)}
        )
    accuracy = sum(r["correct"] for r in rows) / len(rows) if rows else float("nan")
    return {
        "problems": len(rows),
        "accuracy": {"beam": accuracy},
        "tokens": {"beam": sum(r["tokens"] for r in rows)},
        "token_counter": counter_name,
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        report = run(args)
    except (DataError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    summary = {k: v for k, v in report.items() if k != "rows"}
    print(json.dumps(summary, indent=2))
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
