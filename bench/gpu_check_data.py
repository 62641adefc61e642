"""Write the data bench/gpu_check.sh needs into .gpucheck/ (git ignores it; carry it to the GPU
machine, where ../shared/data is not).

    .venv/bin/python bench/gpu_check_data.py [--rows 1600] [--dir .gpucheck]

processbench_trl.jsonl: the real ProcessBench sample of ../shared/data as TRL stepwise rows
(train_bench.trl_rows: steps before the first error positive, that step negative), repeated to
`--rows` (a multiple of 16, 32 and 64: no short batch at an epoch's end). gpu_check.sh trains on
it (bench/gpu_train.py --data) and trains the random checkpoint's tokenizer on its text.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))


def main(argv: list[str] | None = None) -> int:
    import train_bench

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1600)
    parser.add_argument("--dir", type=Path, default=REPO / ".gpucheck")
    args = parser.parse_args(argv)
    if not train_bench.PROCESSBENCH.is_file():
        parser.error(f"{train_bench.PROCESSBENCH} is missing: run this where shared/data is")
    args.dir.mkdir(parents=True, exist_ok=True)
    path = args.dir / "processbench_trl.jsonl"
    rows = train_bench.trl_rows(args.rows)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    print(f"{path}: {len(rows)} rows, {path.stat().st_size / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
