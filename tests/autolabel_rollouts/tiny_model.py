"""A tiny Qwen2 model, built from a config and trained in seconds to answer one problem.

Its tokenizer is a byte-level BPE trained on local text. The model is taught, through the
same prompt format the rollout engine writes (autolabel.prompts with its chat template), to
finish "What is 2 + 2?" with \\boxed{4} after correct steps and with \\boxed{5} once the
planted wrong step is in the prefix: so rollouts from it have a known first error.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from autolabel.prompts import rollout_prompt

PROBLEM = "What is 2 + 2?"
GOLD = "4"
GOOD_STEPS = ["We add the numbers.", "Two plus two is four.", "So we have 4.", "Check: 4 - 2 = 2."]
BAD_STEP = "Oops, two plus two is five."
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
CORPUS = Path(__file__).resolve().parents[2] / "labeling" / "demo" / "math500_demo.jsonl"


def _examples(tokenizer, rng: random.Random, count: int) -> list[tuple[str, str]]:
    out = []
    for _ in range(count):
        k = rng.randint(0, len(GOOD_STEPS))
        steps = GOOD_STEPS[:k]
        wrong = rng.random() < 0.5
        if wrong:
            steps = [*steps, BAD_STEP, *GOOD_STEPS[k : k + rng.randint(0, 2)]]
        prompt = rollout_prompt(PROBLEM, steps, tokenizer=tokenizer).text
        answer = "The answer is \\boxed{5}." if wrong else "The answer is \\boxed{4}."
        out.append((prompt, answer + tokenizer.eos_token))
    return out


def build_tiny_model(directory: Path, *, train_steps: int = 150, vocab_size: int = 600) -> Path:
    import torch

    from tests.training.tiny import tiny_causal_lm, tiny_tokenizer

    # A few KB of local math text, plus the training texts themselves, so that BPE merges
    # make the training sequences short (the training cost scales with their length).
    own = rollout_prompt(PROBLEM, [*GOOD_STEPS, BAD_STEP]).text + "The answer is \\boxed{4}."
    text = CORPUS.read_text(encoding="utf-8")[:4000] + "\n" + "\n".join([own] * 30)
    tokenizer = tiny_tokenizer(
        text,
        vocab_size=vocab_size,
        special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
    )
    tokenizer.chat_template = CHAT_TEMPLATE
    model = tiny_causal_lm(tokenizer, max_positions=512)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    rng = random.Random(0)
    model.train()
    for _ in range(train_steps):
        ids, labels = [], []
        for prompt, answer in _examples(tokenizer, rng, 16):
            p = tokenizer(prompt, add_special_tokens=False).input_ids
            a = tokenizer(answer, add_special_tokens=False).input_ids
            ids.append(p + a)
            labels.append([-100] * len(p) + a)
        width = max(map(len, ids))
        lengths = torch.tensor([len(i) for i in ids])
        x = torch.tensor([i + [tokenizer.pad_token_id] * (width - len(i)) for i in ids])
        y = torch.tensor([lab + [-100] * (width - len(lab)) for lab in labels])
        mask = (torch.arange(width)[None, :] < lengths[:, None]).long()
        loss = model(input_ids=x, attention_mask=mask, labels=y).loss
        loss.backward()
        last_loss = loss.item()
        optimizer.step()
        optimizer.zero_grad()
    model.eval()
    print(f"tiny model: {train_steps} steps, sequences of {width} tokens, loss {last_loss:.3f}")
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    # Instruct checkpoints ship do_sample: true; `transformers serve` samples only then.
    generation = directory / "generation_config.json"
    settings = json.loads(generation.read_text())
    settings.update(do_sample=True)
    generation.write_text(json.dumps(settings, indent=2))
    return directory
