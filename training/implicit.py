"""Implicit PRM from outcome labels only ("free process rewards", Yuan et al. 2024).

    python -m training.implicit --data outcomes.jsonl --model CAUSAL_LM --out DIR [--beta 0.05]
    accelerate launch [--config_file CFG] -m training.implicit ...   # every GPU (training.loop)

An outcome reward model parameterised as a log-likelihood ratio,
`r(y) = beta * log(pi(y|x) / pi_ref(y|x))`, is trained with the paper's cross-entropy loss on
the solution's outcome: `BCEWithLogits(r(y), answer_correct)`. The policy pi starts from the
causal LM checkpoint and the reference pi_ref is a frozen copy of it. With x = prompt and y =
the steps (each followed by the separator, as training.data tokenizes them), the reward of
step t is the increment of that ratio over the step's tokens:

    reward_t = beta * (sum over tokens up to the end of step t  -  up to the end of step t-1)
             of (log pi(token | before) - log pi_ref(token | before))

Rows (JSONL, .jsonl.gz or Parquet): steplab's ProcessBench export (`problem`, `steps`,
`final_answer_correct`) or any file with `problem`/`prompt`, `steps`/`completions` and
`answer_correct`/`final_answer_correct`/`correct`; a row whose outcome is null is skipped.
No step label is read.

Saved directory: the policy (a causal LM) with its tokenizer, `reference/` (the reference
model), and `implicit_prm.json` (beta, separator, prompt limit). `ImplicitPRMScorer` loads it
with PRMScorer's interface; its per-step score is `sigmoid(reward_t)` (0.5 = the step changed
nothing; below it, the step made the correct outcome less likely), or the raw reward with
`output="reward"`. `training.scorers.load_scorer` picks it for such a directory.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

from training.data import DataError, Tokenization, TokenizedExample, build_example, read_objects
from training.kind_cli import kind_parser, run
from training.kinds import KindConfig, KindResult
from training.loop import KindLoop, split_train_held
from training.model import load_tokenizer
from training.packing import collate_padded

logger = logging.getLogger("training.implicit")

META = "implicit_prm.json"
REFERENCE = "reference"
_PROMPT_FIELDS = ("problem", "prompt")
_STEP_FIELDS = ("steps", "completions")
_OUTCOME_FIELDS = ("answer_correct", "final_answer_correct", "correct")


@dataclass
class OutcomeRow:
    prompt: str
    steps: list[str]
    correct: bool
    split: str | None = None


def _field(raw: dict, names: Sequence[str]) -> tuple[str, Any]:
    for name in names:
        if name in raw:
            return name, raw[name]
    return names[0], None


def parse_outcome(raw: Any, where: str) -> OutcomeRow | None:
    """A row, or None when its outcome is unknown (null)."""
    if not isinstance(raw, dict):
        raise DataError(f"{where}: expected a JSON object, got {type(raw).__name__}")
    name, prompt = _field(raw, _PROMPT_FIELDS)
    if not isinstance(prompt, str):
        raise DataError(f"{where}: field '{name}': a string expected")
    name, steps = _field(raw, _STEP_FIELDS)
    if not isinstance(steps, list) or not steps or not all(isinstance(s, str) for s in steps):
        raise DataError(f"{where}: field '{name}': a non-empty list of step strings expected")
    name, correct = _field(raw, _OUTCOME_FIELDS)
    if name not in raw:
        raise DataError(f"{where}: field 'answer_correct': missing (or final_answer_correct)")
    if correct is None:
        return None
    if not isinstance(correct, bool) and correct not in (0, 1):
        raise DataError(f"{where}: field '{name}': a boolean expected")
    split = raw.get("split")
    return OutcomeRow(prompt, list(steps), bool(correct), split if isinstance(split, str) else None)


def read_outcomes(paths: Sequence[str | Path]) -> list[OutcomeRow]:
    rows, unknown = [], 0
    for path in paths:
        for where, raw in read_objects(Path(path)):
            row = parse_outcome(raw, where)
            if row is None:
                unknown += 1
            else:
                rows.append(row)
    if unknown:
        logger.info("%d rows without an outcome skipped", unknown)
    if not rows:
        raise DataError(f"no rows with an outcome in {', '.join(map(str, paths))}")
    return rows


@dataclass
class Example:
    tokens: TokenizedExample  # step_positions = the last token of each kept step
    response_start: int  # first token of the first step


def tokenize_outcomes(
    rows: Sequence[tuple[str, Sequence[str]]], tokenizer: Any, settings: Tokenization
) -> list[Example]:
    """One example per (prompt, steps); steps past max_length are cut (whole steps)."""
    sep = tokenizer.encode(settings.step_separator, add_special_tokens=False)
    out = []
    for prompt, steps in rows:
        prompt_ids = tokenizer.encode(prompt, add_special_tokens=False) if prompt else []
        steps_ids = [tokenizer.encode(s, add_special_tokens=False) for s in steps]
        example, _ = build_example(
            prompt_ids,
            steps_ids,
            sep,
            bos_id=tokenizer.bos_token_id,
            labels=None,
            soft=None,
            settings=settings,
        )
        kept = sum(len(s) + len(sep) for s in steps_ids[: len(example.step_positions)])
        start = len(example) - kept
        if start < 1:
            raise DataError("a solution needs a prompt (or a bos token) before its first step")
        out.append(Example(example, start))
    return out


def token_logprobs(model: Any, batch: dict[str, torch.Tensor]) -> torch.Tensor:
    """[batch, tokens]: log p(token j | tokens < j) at j >= 1, 0 at j = 0."""
    ids = batch["input_ids"]
    logits = model(
        input_ids=ids, attention_mask=batch["attention_mask"], use_cache=False
    ).logits.float()
    picked = logits[:, :-1].log_softmax(-1).gather(-1, ids[:, 1:, None])[..., 0]
    return torch.nn.functional.pad(picked, (1, 0))


def _response_mask(examples: Sequence[Example], width: int, device: torch.device) -> torch.Tensor:
    mask = torch.zeros((len(examples), width), device=device)
    for i, e in enumerate(examples):
        end = e.tokens.step_positions[-1] + 1 if e.tokens.step_positions else e.response_start
        mask[i, e.response_start : end] = 1
    return mask


def log_ratios(
    policy: Any, reference: Any, examples: Sequence[Example], pad_id: int
) -> torch.Tensor:
    """Per-token log pi - log pi_ref over the response tokens (0 elsewhere); the policy's
    part carries gradients."""
    device = next(policy.parameters()).device
    batch = collate_padded([e.tokens for e in examples], pad_id)
    batch = {k: batch[k].to(device) for k in ("input_ids", "attention_mask")}
    with torch.no_grad():
        ref = token_logprobs(reference, batch)
    mask = _response_mask(examples, batch["input_ids"].shape[1], device)
    return (token_logprobs(policy, batch) - ref) * mask


def step_rewards(
    ratios: torch.Tensor, examples: Sequence[Example], beta: float
) -> list[list[float]]:
    """beta * the cumulative log-ratio's increment from the previous step end to this one."""
    cumulative = ratios.detach().double().cumsum(-1)
    out = []
    for i, e in enumerate(examples):
        ends = e.tokens.step_positions
        prev = cumulative[i, e.response_start - 1]
        rewards = []
        for end in ends:
            rewards.append(beta * float(cumulative[i, end] - prev))
            prev = cumulative[i, end]
        out.append(rewards)
    return out


def outcome_loss(rewards: torch.Tensor, correct: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.binary_cross_entropy_with_logits(rewards, correct)


def load_causal_lm(path: str | Path, *, dtype: torch.dtype | None = None) -> Any:
    from transformers import AutoModelForCausalLM

    kwargs = {"dtype": dtype} if dtype is not None else {}
    model = AutoModelForCausalLM.from_pretrained(str(path), **kwargs)
    model.config.use_cache = False
    return model


@dataclass
class ImplicitConfig(KindConfig):
    reference: str | None = None  # default: the same checkpoint as the policy
    beta: float = 0.05
    learning_rate: float = 5e-6
    batch_size: int = 4


def evaluate_outcomes(
    policy: Any,
    reference: Any,
    items: Sequence[tuple[Example, bool]],
    *,
    beta: float,
    pad_id: int,
    loop: KindLoop,
) -> dict[str, float]:
    """Mean outcome loss and accuracy of sign(r(y)) against the outcome, over every
    process's share of the (example, outcome) items."""

    def measure(chunk: Sequence[tuple[Example, bool]]):
        target = torch.tensor([y for _, y in chunk], dtype=torch.float32)
        examples = [e for e, _ in chunk]
        rewards = beta * log_ratios(policy, reference, examples, pad_id).sum(-1).cpu()
        return outcome_loss(rewards, target), ((rewards > 0).float() == target).sum()

    return loop.evaluate(policy, items, measure)


def train_implicit(config: ImplicitConfig) -> KindResult:
    """Train (on every process of an `accelerate launch`), save on the main process."""
    loop = KindLoop.of(config, unit="solutions")
    tokenizer, settings = load_tokenizer(config.model), config.tokenization()
    train_rows, held_rows = split_train_held(read_outcomes(config.data), config.eval_split)
    if not train_rows:
        raise DataError("no training rows with an outcome")

    def items(rows: Sequence[OutcomeRow]) -> list[tuple[Example, bool]]:
        examples = tokenize_outcomes([(r.prompt, r.steps) for r in rows], tokenizer, settings)
        return list(zip(examples, [r.correct for r in rows], strict=True))

    train, held = items(train_rows), items(held_rows)
    policy = load_causal_lm(config.model)
    reference = load_causal_lm(config.reference or config.model).to(loop.device).eval()
    reference.requires_grad_(False)
    optimizer = torch.optim.AdamW(policy.parameters(), lr=config.learning_rate)
    policy, optimizer = loop.prepare(policy, optimizer)
    pad = tokenizer.pad_token_id
    common = {"beta": config.beta, "pad_id": pad, "loop": loop}
    before = evaluate_outcomes(policy, reference, train, **common)
    total = loop.steps_for(config.num_epochs, len(train))

    def loss_of(picked: list[int]) -> torch.Tensor:
        chunk = [train[i] for i in picked]
        target = torch.tensor([y for _, y in chunk], dtype=torch.float32, device=loop.device)
        ratios = log_ratios(policy, reference, [e for e, _ in chunk], pad)
        return outcome_loss(config.beta * ratios.sum(-1), target)

    loop.fit(
        policy, optimizer, size=len(train), steps=total, loss_of=loss_of, history=config.history
    )
    after = evaluate_outcomes(policy, reference, train, **common)
    held_metrics = evaluate_outcomes(policy, reference, held, **common) if held else None
    saved = {k: v for k, v in asdict(config).items() if k != "history"}
    metrics = {"train_before": before, "train": after, "eval": held_metrics}
    bare, state_dict = loop.save_state(policy)
    save_implicit(
        bare,
        reference,
        tokenizer,
        config.output_dir,
        beta=config.beta,
        settings=settings,
        extra={"training_config.json": saved, "metrics.json": metrics},
        state_dict=state_dict,
        is_main_process=loop.main,
        save_function=loop.accelerator.save,
    )
    loop.done()
    return KindResult(Path(config.output_dir), total, before, after, held_metrics)


def save_implicit(
    policy: Any,
    reference: Any,
    tokenizer: Any,
    out: str | Path,
    *,
    beta: float,
    settings: Tokenization,
    extra: dict[str, Any] | None = None,
    state_dict: dict[str, torch.Tensor] | None = None,
    is_main_process: bool = True,
    save_function: Any = torch.save,
) -> Path:
    """The policy (with `state_dict`, gathered from every process, when given), tokenizer,
    reference and implicit_prm.json; only the main process writes."""
    out = Path(out)
    policy.config.prm_kind = "implicit"
    if not is_main_process:
        return out
    policy.save_pretrained(str(out), state_dict=state_dict, save_function=save_function)
    tokenizer.save_pretrained(str(out))
    if (out / REFERENCE).exists():
        shutil.rmtree(out / REFERENCE)
    reference.save_pretrained(str(out / REFERENCE))
    meta = {
        "kind": "implicit",
        "beta": beta,
        "reference": REFERENCE,
        "step_separator": settings.step_separator,
        "max_prompt_length": settings.max_prompt_length,
    }
    (out / META).write_text(json.dumps(meta, indent=2), encoding="utf-8")
    for name, value in (extra or {}).items():
        (out / name).write_text(json.dumps(value, indent=2, sort_keys=True), encoding="utf-8")
    (out / "README.md").write_text(
        "# Implicit process reward model (steplab)\n\n"
        "Trained by `python -m training.implicit` from outcome labels only: the outcome reward "
        f"is beta * log(policy / reference) with beta = {beta}; a step's reward is that "
        "log-ratio's increment over the step's tokens. Load it with "
        "`training.implicit.ImplicitPRMScorer` (scores are sigmoid of the step rewards).\n",
        encoding="utf-8",
    )
    return out


def is_implicit(model_dir: str | Path) -> bool:
    return (Path(model_dir) / META).exists()


class ImplicitPRMScorer:
    """PRMScorer's interface over a saved implicit PRM: one score per step."""

    def __init__(
        self,
        model_dir: str | Path,
        *,
        device: str | torch.device | None = None,
        dtype: torch.dtype | None = None,
        batch_size: int = 8,
        output: str = "probability",
    ) -> None:
        if output not in ("probability", "reward"):
            raise ValueError(f"output must be 'probability' or 'reward', got {output!r}")
        self.model_dir = Path(model_dir)
        meta = json.loads((self.model_dir / META).read_text(encoding="utf-8"))
        self.beta = float(meta["beta"])
        self.output = output
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.tokenizer = load_tokenizer(self.model_dir)
        self.model = load_causal_lm(self.model_dir, dtype=dtype).to(self.device).eval()
        ref_dir = self.model_dir / meta.get("reference", REFERENCE)
        self.reference = load_causal_lm(ref_dir, dtype=dtype).to(self.device).eval()
        self.settings = Tokenization(
            step_separator=meta["step_separator"],
            max_length=None,
            max_prompt_length=meta.get("max_prompt_length"),
        )
        self.batch_size = batch_size

    def rewards_many(
        self,
        items: Sequence[tuple[str, Sequence[str]]],
        batch_size: int | None = None,
        deadline: Any = None,
    ) -> list[list[float]]:
        """Raw step rewards (beta * log-ratio increments) for (problem, steps) pairs.
        ``deadline`` (training.score's): checked before each forward pass and after the last."""
        batch_size = batch_size or self.batch_size
        results: list[list[float]] = [[] for _ in items]
        todo = [i for i, (_, steps) in enumerate(items) if steps]
        examples = tokenize_outcomes([items[i] for i in todo], self.tokenizer, self.settings)
        order = sorted(range(len(examples)), key=lambda k: len(examples[k].tokens))
        with torch.no_grad():
            for start in range(0, len(order), batch_size):
                if deadline is not None:
                    deadline.check()
                chunk = order[start : start + batch_size]
                picked = [examples[k] for k in chunk]
                ratios = log_ratios(self.model, self.reference, picked, self.tokenizer.pad_token_id)
                for k, rewards in zip(chunk, step_rewards(ratios, picked, self.beta), strict=True):
                    results[todo[k]] = rewards
        if deadline is not None:
            deadline.check()
        return results

    def score_many(
        self,
        items: Sequence[tuple[str, Sequence[str]]],
        batch_size: int | None = None,
        deadline: Any = None,
    ) -> list[list[float]]:
        rewards = self.rewards_many(items, batch_size, deadline)
        if self.output == "reward":
            return rewards
        return [[float(torch.sigmoid(torch.tensor(r))) for r in row] for row in rewards]

    def score(
        self, problem: str, steps_list: Sequence[Sequence[str]], batch_size: int | None = None
    ) -> list[list[float]]:
        return self.score_many([(problem, steps) for steps in steps_list], batch_size)


def build_parser() -> argparse.ArgumentParser:
    p = kind_parser(
        "python -m training.implicit",
        __doc__,
        data="outcome rows, JSONL/Parquet",
        model="causal LM checkpoint (policy init)",
        learning_rate=5e-6,
        batch_size=4,
        unit="solutions",
    )
    p.add_argument("--reference", help="reference causal LM (default: --model)")
    p.add_argument("--beta", type=float, default=0.05)
    return p


def main(argv: list[str] | None = None) -> int:
    return run(build_parser(), ImplicitConfig, train_implicit, argv)


if __name__ == "__main__":
    sys.exit(main())
