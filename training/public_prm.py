"""Public PRMs' input conventions: what text a published step-level reward model reads and at
which tokens its step scores are.

- ``qwen`` (Qwen2.5-Math-PRM-7B / -72B, Qwen2.5-Math-7B-PRM800K): the conversation
  system = "Please reason step by step, and put your final answer within \\boxed{}.", user =
  the problem, assistant = the steps each followed by ``<extra_0>``, rendered with the
  tokenizer's chat template (no generation prompt) and tokenized as the model card does
  (``tokenizer.encode``). The model is a token classifier with two classes; a step's score is
  softmax(logits)[1] at its ``<extra_0>`` (the card's ``make_step_rewards``).
- ``math-shepherd`` (peiyi9979/math-shepherd-mistral-7b-prm and its kind): ``problem + " " +``
  the steps, each as ``Step k: <text> ки`` (the README's input; ``number_steps`` false leaves the
  steps as they are), joined by newlines. The model is a causal LM; a step's score is the
  softmax over the logits of "+" and "-" at its tag, P("+").
- ``seq-cls``: a sequence classifier reads the problem and the steps up to each one (a
  conversation user = problem, assistant = the steps joined by ``joiner``, with the tokenizer's
  chat template, or plain text ``problem + "\\n\\n" + steps``); one forward pass per prefix; a
  step's score is sigmoid(logit) for one label, softmax(logits)[1] for two.

The tag and separator positions are found from the text this module builds, never by
searching the problem or a step for them: the separator is removed from the texts first
(``<extra_0>`` is a special token wherever it appears), and the Math-Shepherd tag's token is
located through the tokenizer's offsets, so a step that itself says "ки" (Russian text) does
not shift the scores. Pure: tokenizers only, no model, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

CONVENTIONS = ("qwen", "math-shepherd", "seq-cls")
QWEN_SYSTEM = "Please reason step by step, and put your final answer within \\boxed{}."
QWEN_SEPARATOR = "<extra_0>"
SHEPHERD_TAG = "ки"
TEMPLATES = ("auto", "chat", "plain")
_NUMBERED = re.compile(r"\s*step\s*\d+\s*:", re.IGNORECASE)


class InputError(ValueError):
    """A solution this convention cannot render for this tokenizer."""


@dataclass(frozen=True)
class Convention:
    name: str
    system: str = QWEN_SYSTEM  # qwen
    step_tag: str = SHEPHERD_TAG  # math-shepherd
    good_token: str = "+"
    bad_token: str = "-"
    number_steps: bool = True
    template: str = "auto"  # seq-cls: chat template when the tokenizer has one
    joiner: str = "\n\n"

    def __post_init__(self) -> None:
        if self.name not in CONVENTIONS:
            raise ValueError(f"convention must be one of {CONVENTIONS}, got {self.name!r}")
        if self.template not in TEMPLATES:
            raise ValueError(f"template must be one of {TEMPLATES}, got {self.template!r}")


# --- the texts -------------------------------------------------------------------------


def qwen_messages(convention: Convention, problem: str, steps: Sequence[str]) -> list[dict]:
    """The model card's conversation; ``<extra_0>`` inside the texts is removed first."""

    def clean(text: str) -> str:
        return text.replace(QWEN_SEPARATOR, "")

    answer = "".join(clean(step) + QWEN_SEPARATOR for step in steps)
    return [
        {"role": "system", "content": convention.system},
        {"role": "user", "content": clean(problem)},
        {"role": "assistant", "content": answer},
    ]


def shepherd_text(
    convention: Convention, problem: str, steps: Sequence[str]
) -> tuple[str, list[int]]:
    """The README's input and, per step, the character index just past its tag."""
    text = problem + " "
    ends = []
    for k, step in enumerate(steps, 1):
        if k > 1:
            text += "\n"
        body = step.strip()
        if convention.number_steps and not _NUMBERED.match(body):
            body = f"Step {k}: {body}"
        text += f"{body} {convention.step_tag}"
        ends.append(len(text))
    return text, ends


def prefix_messages(convention: Convention, problem: str, steps: Sequence[str]) -> list[dict]:
    return [
        {"role": "user", "content": problem},
        {"role": "assistant", "content": convention.joiner.join(steps)},
    ]


def prefix_text(convention: Convention, problem: str, steps: Sequence[str]) -> str:
    return problem + "\n\n" + convention.joiner.join(steps)


def uses_chat(convention: Convention, tokenizer: Any | None) -> bool:
    """seq-cls: render a conversation (template chat, or auto with a chat template)."""
    if convention.template == "auto":
        return tokenizer is None or bool(getattr(tokenizer, "chat_template", None))
    return convention.template == "chat"


# --- token ids and score positions -------------------------------------------------------


def _chat(tokenizer: Any, messages: list[dict]) -> str:
    if not getattr(tokenizer, "chat_template", None):
        raise InputError("the tokenizer has no chat template (this convention renders one)")
    return tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=False)


def separator_id(tokenizer: Any) -> int:
    ids = tokenizer.encode(QWEN_SEPARATOR, add_special_tokens=False)
    if len(ids) != 1:
        raise InputError(f"the tokenizer has no single {QWEN_SEPARATOR} token")
    return ids[0]


def encode_qwen(
    tokenizer: Any, convention: Convention, problem: str, steps: Sequence[str]
) -> tuple[list[int], list[int]]:
    """Token ids and the index of each step's ``<extra_0>``."""
    text = _chat(tokenizer, qwen_messages(convention, problem, steps))
    ids = tokenizer.encode(text)
    sep = separator_id(tokenizer)
    positions = [i for i, t in enumerate(ids) if t == sep]
    if len(positions) != len(steps):
        raise InputError(
            f"{len(positions)} {QWEN_SEPARATOR} tokens for {len(steps)} steps: the chat "
            "template or the system prompt adds or drops separators"
        )
    return ids, positions


def encode_shepherd(
    tokenizer: Any, convention: Convention, problem: str, steps: Sequence[str]
) -> tuple[list[int], list[int]]:
    """Token ids and, per step, the token that ends its tag (the README's ``step_tag_id``)."""
    text, ends = shepherd_text(convention, problem, steps)
    if not getattr(tokenizer, "is_fast", False):
        raise InputError("math-shepherd needs a fast tokenizer (its offsets find the tags)")
    encoded = tokenizer(text, return_offsets_mapping=True)
    ids, offsets = encoded["input_ids"], encoded["offset_mapping"]
    positions, k = [], 0
    for end in ends:
        while k < len(ids) and not (offsets[k][0] < end <= offsets[k][1]):
            k += 1
        if k == len(ids):
            raise InputError(f"no token ends the step tag at character {end}")
        positions.append(k)
    return ids, positions


def scored_token_ids(tokenizer: Any, convention: Convention) -> tuple[int, int]:
    """The ids of the good and bad tokens as a word after a space, which is what the README's
    ``tokenizer.encode("+ -")[1:]`` gives Mistral ("▁+", "▁-"): the last token of "a +"."""
    found = []
    for token in (convention.good_token, convention.bad_token):
        last = tokenizer.encode(f"a {token}", add_special_tokens=False)[-1]
        if tokenizer.decode([last]).strip() != token:
            raise InputError(f"{token!r} after a space is not one token of this tokenizer")
        found.append(last)
    return found[0], found[1]


def encode_prefixes(
    tokenizer: Any, convention: Convention, problem: str, steps: Sequence[str]
) -> list[list[int]]:
    """seq-cls: one token sequence per step, the problem and the steps up to it."""
    out = []
    for i in range(len(steps)):
        prefix = steps[: i + 1]
        if uses_chat(convention, tokenizer):
            text = _chat(tokenizer, prefix_messages(convention, problem, prefix))
            out.append(tokenizer.encode(text, add_special_tokens=False))
        else:
            out.append(tokenizer.encode(prefix_text(convention, problem, prefix)))
    return out
