"""Local models through transformers: any checkpoint directory, or a GGUF file (dequantized)."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

from .base import Sampling, SamplingChatCompleter, derive_seed, truncate_at_stop

_DTYPES = ("float32", "float16", "bfloat16", "auto")


def _fingerprint(model_config_json: str, files: list[Path]) -> str:
    """Config plus the weight files' names and sizes: cheap, and stable across copies."""
    h = hashlib.sha256(model_config_json.encode())
    for f in sorted(files):
        h.update(f"\x1f{f.name}:{f.stat().st_size}".encode())
    return h.hexdigest()[:12]


class TransformersCompleter(SamplingChatCompleter):
    """Sampling from a causal LM loaded with AutoTokenizer / AutoModelForCausalLM.

    ``path`` is a checkpoint directory, or a ``.gguf`` file (or its directory with
    ``gguf_file``); GGUF weights are dequantized by transformers (needs the ``gguf``
    package). With a ``seed``, each prompt is generated on its own from a seed derived from
    (seed, prompt), so its texts do not depend on which other prompts share the call;
    without one, prompts are batched ``batch_size`` at a time. With an item's deadline, each
    generate stops at it (``max_time``) and the call raises the item's ItemSkipped: a text the
    deadline cut short is no sample of the model.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        gguf_file: str | None = None,
        device: str = "cpu",
        dtype: str | None = None,
        batch_size: int = 8,
    ) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        path = Path(path)
        if gguf_file is None and path.suffix == ".gguf":
            path, gguf_file = path.parent, path.name
        if not path.is_dir():
            raise FileNotFoundError(f"no model directory at {path}")
        if dtype is not None and dtype not in _DTYPES:
            raise ValueError(f"dtype must be one of {_DTYPES}, got {dtype!r}")
        extra: dict[str, Any] = {"gguf_file": gguf_file} if gguf_file else {}
        # transformers 5 defaults to "auto" (often bf16): slow on CPU, so fp32 there.
        torch_dtype: Any = dtype or ("float32" if device == "cpu" else "auto")
        if torch_dtype != "auto":
            torch_dtype = getattr(torch, torch_dtype)
        self.tokenizer = AutoTokenizer.from_pretrained(path, **extra)
        self.model = AutoModelForCausalLM.from_pretrained(path, dtype=torch_dtype, **extra)
        self.model.to(device).eval()
        self.device = device
        self.batch_size = max(1, batch_size)
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        weights = (
            [path / gguf_file]
            if gguf_file
            else [p for p in path.iterdir() if p.suffix in (".safetensors", ".bin")]
        )
        name = gguf_file or path.name
        config_json = self.model.config.to_json_string(use_diff=False)
        self.id = f"hf:{name}@{_fingerprint(config_json, weights)}"
        self._lock = threading.Lock()  # torch's seed is global; one generate at a time

    def _encode(self, prompts: list[str]) -> Any:
        bos = self.tokenizer.bos_token
        # A chat template already starts with BOS where the model wants one: do not double it.
        add_special = not (bos and all(p.startswith(bos) for p in prompts))
        return self.tokenizer(
            prompts, return_tensors="pt", padding=True, add_special_tokens=add_special
        ).to(self.device)

    def _generate(self, prompts: list[str], sampling: Sampling) -> list[list[str]]:
        """``sampling.n`` texts per prompt; the caller seeds torch."""
        n, temperature, stop = sampling.n, sampling.temperature, sampling.stop
        enc = self._encode(prompts)
        kwargs: dict[str, Any] = {
            "max_new_tokens": sampling.max_tokens,
            "num_return_sequences": n,
            "pad_token_id": self.tokenizer.pad_token_id,
            "do_sample": temperature > 0,
        }
        if temperature > 0:
            kwargs.update(temperature=temperature, top_p=sampling.top_p, top_k=0)
        if stop:
            kwargs.update(stop_strings=list(stop), tokenizer=self.tokenizer)
        if sampling.deadline is not None and (left := sampling.deadline.wait_s()) is not None:
            kwargs["max_time"] = left
        out = self.model.generate(**enc, **kwargs)
        if sampling.deadline is not None:
            sampling.deadline.check()  # max_time cut it short
        new_tokens = out[:, enc["input_ids"].shape[1] :]
        texts = self.tokenizer.batch_decode(new_tokens, skip_special_tokens=True)
        texts = [truncate_at_stop(t, stop) for t in texts]
        return [texts[i * n : (i + 1) * n] for i in range(len(prompts))]

    def _complete(self, prompts: list[str], sampling: Sampling) -> list[list[str]]:
        import torch

        deadline = sampling.deadline
        # One generate at a time (torch's seed is global): another item's may hold the model.
        wait = None if deadline is None else deadline.wait_s()
        if not self._lock.acquire(timeout=-1 if wait is None else wait):
            raise deadline.spent() if deadline is not None else RuntimeError("lock not taken")
        try:
            with torch.inference_mode():
                return self._generate_groups(prompts, sampling, torch)
        finally:
            self._lock.release()

    def _generate_groups(
        self, prompts: list[str], sampling: Sampling, torch: Any
    ) -> list[list[str]]:
        """One prompt at a time from its own seed when there is one, else in batches."""
        seed = sampling.seed
        results: list[list[str]] = []
        step = 1 if seed is not None else self.batch_size
        for start in range(0, len(prompts), step):
            group = prompts[start : start + step]
            if seed is not None:
                torch.manual_seed(derive_seed(seed, group[0]))
            results.extend(self._generate(group, sampling))
        return results

    def _chat(
        self, conversations: list[list[dict[str, str]]], sampling: Sampling
    ) -> list[list[str]]:
        from autolabel.prompts import render_chat

        prompts = [render_chat(c, tokenizer=self.tokenizer) for c in conversations]
        return self._complete(prompts, sampling)
