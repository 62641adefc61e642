"""bench/random_checkpoint.py: a random-weight checkpoint that transformers loads and
bench/gpu_train.py measures, built without Django or the app (the GPU machine has neither)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import gpu_train, random_checkpoint

from .test_no_django import run_probe
from .tiny import toy_rows, write_jsonl

# A fresh interpreter refuses Django and the apps, runs the script as the GPU check does, then
# imports every bench and training module on the check's path and measures the checkpoint.
PROBE = """
import json, runpy, sys

FORBIDDEN = set(json.loads(sys.argv[1]))


class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in FORBIDDEN:
            raise ImportError(f"the GPU check may not import {name}")
        return None


sys.meta_path.insert(0, Refuse())
sys.argv = ["bench/random_checkpoint.py", *sys.argv[2:]]
try:
    runpy.run_path("bench/random_checkpoint.py", run_name="__main__")
except SystemExit as done:
    assert not done.code, done.code
sys.path.insert(0, "bench")
import importlib
for name in ("gpu_train", "reward_bench", "train_bench", "gpu_check_data", "training.train",
             "training.serve", "training.scorers", "training.score"):
    importlib.import_module(name)
import gpu_train
shape = gpu_train.model_shape(sys.argv[sys.argv.index("--out") + 1])
loaded = sorted(m for m in sys.modules if m.partition(".")[0] in FORBIDDEN)
print(json.dumps({"shape": shape, "loaded": loaded}))
"""


def test_tiny_checkpoint_builds_without_django_loads_and_is_measured(tmp_path: Path) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    text = write_jsonl(tmp_path / "rows.jsonl", toy_rows(40))
    out = tmp_path / "tiny"
    args = ["--shape", "tiny", "--out", str(out), "--text", str(text), "--dtype", "float32"]
    report = run_probe(PROBE, *args)
    assert report["loaded"] == []

    tokenizer = AutoTokenizer.from_pretrained(out)
    model = AutoModelForCausalLM.from_pretrained(out)
    config = model.config
    assert config.model_type == "qwen2" and config.steplab_random_checkpoint == "tiny"
    assert (config.hidden_size, config.num_hidden_layers, config.intermediate_size) == (64, 2, 128)
    assert config.num_attention_heads == 4 and config.num_key_value_heads == 2
    assert config.vocab_size == len(tokenizer)  # tiny: the tokenizer's own size
    assert tokenizer.eos_token == tokenizer.pad_token == "<|endoftext|>"
    assert config.eos_token_id == tokenizer.eos_token_id
    sentence = toy_rows(1)[0]["completions"][0]
    ids = tokenizer(sentence)["input_ids"]
    assert tokenizer.decode(ids) == sentence
    assert model(input_ids=__import__("torch").tensor([ids])).logits.shape[-1] == len(tokenizer)

    embeddings = 64 * len(tokenizer)
    assert report["shape"]["layers"] == 2 and report["shape"]["hidden"] == 64
    assert report["shape"]["params"] - report["shape"]["non_embedding"] == embeddings
    assert report["shape"] == gpu_train.model_shape(str(out))


@pytest.mark.parametrize(
    ("shape", "billions", "non_embedding", "layers", "hidden"),
    [("qwen2.5-0.5b", 0.49, 0.36, 24, 896), ("qwen2.5-1.5b", 1.54, 1.31, 28, 1536)],
)
def test_published_shapes_have_the_published_parameter_counts(
    tmp_path: Path, shape: str, billions: float, non_embedding: float, layers: int, hidden: int
) -> None:
    """Qwen's model cards: 0.49 B (0.36 B non-embedding), 1.54 B (1.31 B), counted by
    gpu_train.model_shape on the meta device from the config alone."""
    tokenizer = random_checkpoint.build_tokenizer(
        [" ".join(r["completions"]) for r in toy_rows(20)], vocab_size=400
    )
    config = random_checkpoint.shape_config(shape, tokenizer)
    config.save_pretrained(tmp_path)
    counted = gpu_train.model_shape(str(tmp_path))
    assert round(counted["params"] / 1e9, 2) == billions
    assert round(counted["non_embedding"] / 1e9, 2) == non_embedding
    assert (counted["layers"], counted["hidden"]) == (layers, hidden)
    assert config.vocab_size == random_checkpoint.QWEN_VOCAB > len(tokenizer)
    assert config.rope_parameters["rope_theta"] == 1_000_000.0
