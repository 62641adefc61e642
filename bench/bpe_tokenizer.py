"""A byte-level BPE tokenizer trained on the spot: the tokenizer of every model that tests and
benchmarks build from a config (tests/training/tiny.py, bench/reward_bench.py,
bench/train_bench.py, bench/multidomain_prm.py, bench/random_checkpoint.py).

Needs only tokenizers and transformers (no Django, nothing of the app), so a GPU machine with
just the ML packages can build a checkpoint with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


def train_byte_level_bpe(
    texts: Iterable[str], *, vocab_size: int, special_tokens: Sequence[str], **named: Any
) -> Any:
    """A byte-level BPE trained on `texts`, as a PreTrainedTokenizerFast; `named` gives its
    eos / pad / bos tokens (e.g. ``eos_token="<|endoftext|>"``). Its vocabulary has the 256
    byte symbols, the special tokens and at most `vocab_size` in all: fewer when the text has
    no more merges to learn."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(
        texts,
        trainers.BpeTrainer(
            vocab_size=vocab_size,
            special_tokens=list(special_tokens),
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    return PreTrainedTokenizerFast(tokenizer_object=bpe, **named)
