#!/usr/bin/env bash
# One GPU check of PRM training and reward serving on a random-weight Qwen2.5-0.5B, ~6 minutes.
#
#   bench/gpu_check.sh           # on the GPU machine, from the repo root (python3 with torch,
#                                # transformers, accelerate, tokenizers; no Django needed)
#   bench/gpu_check.sh --tiny    # a CPU dry run of the same steps with a tiny model
#   GPUCHECK_BATCH=16 GPUCHECK_MINUTES=2 bench/gpu_check.sh   # smaller batches, shorter run
#
# Needs .gpucheck/processbench_trl.jsonl (bench/gpu_check_data.py writes it where ../shared/data
# is; carry .gpucheck to the GPU machine). Steps, each under its own time limit:
#   1. nvidia-smi, versions;
#   2. bench/random_checkpoint.py: Qwen2.5-0.5B's shape, random bf16 weights, in /tmp;
#   3. bench/gpu_train.py: training.train in bf16 (sdpa, padded batches grouped by length) for
#      3 minutes after the first logged window: tokens/s, MFU, peak memory;
#   4. bench/reward_bench.py --device cuda: training.serve micro-batched vs one item per pass.
# Everything goes to "$OUT/" (default /tmp/out): each step's log, metrics.jsonl, a GPU monitor
# CSV and summary.txt. Installs nothing. Exit status: 0 when every step passed.
set -uo pipefail

OUT="${OUT:-/tmp/out}"
PY="${PYTHON:-python3}"
DATA=.gpucheck/processbench_trl.jsonl
WORK="${GPUCHECK_WORK:-/tmp/gpucheck}"
export TOKENIZERS_PARALLELISM=false HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONUNBUFFERED=1
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True

if [[ "${1:-}" == "--tiny" ]]; then
    SHAPE=tiny
    TRAIN=(--cpu --minutes 0.5 --epochs 100 --batch-size 16 --max-length 2048 --log-every 2)
    REWARD=(--device cpu --items 64 --clients 8 --max-batch 32 --repeats 1)
    LIMITS=(120 240 120)
else
    SHAPE=qwen2.5-0.5b
    TRAIN=(--minutes "${GPUCHECK_MINUTES:-3}" --epochs 1000 --batch-size "${GPUCHECK_BATCH:-32}"
        --max-length 2048 --log-every 5)
    REWARD=(--device cuda --items 2048 --clients 64 --max-batch 64 --max-wait-ms 5 --repeats 1)
    LIMITS=(100 290 150)  # seconds: worst case 540 in all
fi
CKPT="$WORK/$SHAPE-random"

if [[ ! -f "$DATA" ]]; then
    echo "missing $DATA: run bench/gpu_check_data.py where ../shared/data is, carry .gpucheck" >&2
    exit 2
fi
mkdir -p "$OUT" "$WORK"
rm -rf "$CKPT" "$WORK/prm"
declare -A STATUS=()

step() {  # step NAME LIMIT COMMAND...: run under a time limit, log to $OUT/NAME.log
    local name=$1 limit=$2
    shift 2
    local started=$SECONDS
    echo "== $name (limit ${limit} s): $*"
    timeout --kill-after=10 "$limit" "$@" > "$OUT/$name.log" 2>&1
    local rc=$?
    STATUS[$name]="rc $rc, $((SECONDS - started)) s"
    grep -v -e 'Loading weights' -e 'Writing model' -e 'step/s' -e '^ *$' "$OUT/$name.log" |
        tail -n 12
    return $rc
}

MONITOR=""
if command -v nvidia-smi > /dev/null; then
    nvidia-smi | tee "$OUT/nvidia-smi.txt"
    nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used,power.draw \
        --format=csv -l 5 > "$OUT/gpu_monitor.csv" 2>&1 &
    MONITOR=$!
else
    echo "no nvidia-smi here" | tee "$OUT/nvidia-smi.txt"
fi
"$PY" -c 'import sys, torch, transformers, accelerate, tokenizers
print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda,
      "transformers", transformers.__version__, "accelerate", accelerate.__version__,
      "tokenizers", tokenizers.__version__, "device", torch.cuda.get_device_name(0)
      if torch.cuda.is_available() else "cpu")' 2>&1 | tee "$OUT/versions.txt"

step random_checkpoint "${LIMITS[0]}" "$PY" bench/random_checkpoint.py --shape "$SHAPE" \
    --out "$CKPT" --text "$DATA"
if [[ -f "$CKPT/config.json" ]]; then
    step gpu_train "${LIMITS[1]}" "$PY" bench/gpu_train.py --model "$CKPT" --data "$DATA" \
        --out "$WORK/prm" --attn sdpa "${TRAIN[@]}"
    cp "$WORK/prm/metrics.jsonl" "$OUT/" 2> /dev/null
    step reward_bench "${LIMITS[2]}" "$PY" bench/reward_bench.py --model "$CKPT" "${REWARD[@]}"
fi
[[ -n "$MONITOR" ]] && kill "$MONITOR" 2> /dev/null

{
    echo "== summary ($SHAPE, random weights)"
    for name in random_checkpoint gpu_train reward_bench; do
        echo "$name: ${STATUS[$name]:-not run}"
    done
    grep -h -e '^GPU:' -e '^attention' -e '^measured' -e '^tokens/s' -e '^model TFLOPs' \
        -e '^MFU' -e '^peak GPU' "$OUT/gpu_train.log" 2> /dev/null
    grep -h -e '^PRM' -e 'items/s' -e '^largest' "$OUT/reward_bench.log" 2> /dev/null
    tail -n 1 "$OUT/random_checkpoint.log" 2> /dev/null
} | tee "$OUT/summary.txt"

for name in random_checkpoint gpu_train reward_bench; do
    [[ "${STATUS[$name]:-}" == "rc 0,"* ]] || exit 1
done
exit 0
