"""The tokenizer of a chat_template export: loaded offline, checked, cached per process.

`chat_tokenizer` is called when the export is created (so a missing tokenizer, one without a
chat template, or a separator that is not one of its tokens is a 400 naming the field) and
again in the export worker, which renders the rows with it.
"""

from functools import lru_cache
from pathlib import Path
from typing import Any

from labeling.errors import ValidationFailed

_AT = "label_policy"


@lru_cache(maxsize=4)
def _load(name: str) -> Any:
    from transformers import AutoTokenizer

    # Offline only: a local directory, or a name already in the Hugging Face cache. No
    # remote code: a tokenizer is data here.
    return AutoTokenizer.from_pretrained(name, local_files_only=True, trust_remote_code=False)


def chat_tokenizer(name: str, separator: str) -> tuple[Any, int]:
    """The tokenizer and the id of `separator`, or ValidationFailed saying what is wrong."""
    if not name:
        raise ValidationFailed(
            f"{_AT}.tokenizer is required for the chat_template format (a local directory "
            "with the tokenizer's files, or a name in the Hugging Face cache).",
            field=f"{_AT}.tokenizer",
        )
    if name.startswith(("/", ".", "~")) and not Path(name).expanduser().is_dir():
        raise ValidationFailed(
            f"{_AT}.tokenizer: no directory {name!r} on the server (give the directory that "
            "holds tokenizer.json / tokenizer_config.json, or a name in the Hugging Face cache).",
            field=f"{_AT}.tokenizer",
        )
    try:
        tokenizer = _load(name)
    except Exception as exc:  # noqa: BLE001  (any load failure is the caller's bad option)
        raise ValidationFailed(
            f"{_AT}.tokenizer: cannot load {name!r} offline (a local directory with the "
            f"tokenizer's files, or a name in the Hugging Face cache): {str(exc)[:300]}",
            field=f"{_AT}.tokenizer",
        ) from None
    if not getattr(tokenizer, "chat_template", None):
        raise ValidationFailed(
            f"{_AT}.tokenizer: {name!r} has no chat template.", field=f"{_AT}.tokenizer"
        )
    ids = tokenizer(separator, add_special_tokens=False)["input_ids"]
    if len(ids) != 1:
        raise ValidationFailed(
            f"{_AT}.step_separator: {separator!r} must be a single token of {name!r} "
            f"(it is {len(ids)}); add it to the tokenizer as a special token.",
            field=f"{_AT}.step_separator",
        )
    return tokenizer, ids[0]
