import pytest
import torch

from training.data import Tokenization, parse_row, tokenize_rows
from training.model import load_model, load_tokenizer, step_loss, token_logits
from training.packing import collate_packed, collate_padded, real_tokens

from .tiny import toy_rows


@pytest.mark.parametrize("arch", ["tiny_lm", "tiny_llama"])
def test_packed_logits_equal_unpacked(arch, request):
    path = request.getfixturevalue(arch)
    tokenizer = load_tokenizer(path)
    model = load_model(path).eval()
    # token_logits must pass use_cache=False itself: with a cache, transformers 5 lets
    # packed examples attend to each other.
    model.config.use_cache = True
    rows = [parse_row(r, "x") for r in toy_rows(6, seed=3)]
    examples, _ = tokenize_rows(rows, tokenizer, Tokenization(), log=False)
    assert len({len(e) for e in examples}) > 1  # padding really happens
    padded = collate_padded(examples, tokenizer.pad_token_id)
    packed = collate_packed(examples)
    assert real_tokens(padded) == real_tokens(packed) == sum(len(e) for e in examples)
    with torch.no_grad():
        unpacked_logits = token_logits(model, padded)
        packed_logits = token_logits(model, packed)
        alone = [token_logits(model, collate_packed([e]))[0] for e in examples]
    offset = 0
    for i, e in enumerate(examples):
        n = len(e)
        torch.testing.assert_close(
            packed_logits[0, offset : offset + n], unpacked_logits[i, :n], atol=1e-4, rtol=1e-4
        )
        torch.testing.assert_close(alone[i], unpacked_logits[i, :n], atol=1e-4, rtol=1e-4)
        offset += n
    loss_padded = step_loss(unpacked_logits, padded["labels"])
    loss_packed = step_loss(packed_logits, packed["labels"])
    torch.testing.assert_close(loss_packed, loss_padded, atol=1e-5, rtol=1e-5)


def test_packed_batch_restarts_positions(tiny_lm):
    tokenizer = load_tokenizer(tiny_lm)
    rows = [parse_row(r, "x") for r in toy_rows(3)]
    examples, _ = tokenize_rows(rows, tokenizer, Tokenization(), log=False)
    batch = collate_packed(examples)
    positions = batch["position_ids"][0].tolist()
    starts = [k for k, p in enumerate(positions) if p == 0]
    lengths = [len(e) for e in examples]
    assert starts == [0, lengths[0], lengths[0] + lengths[1]]
    assert "attention_mask" not in batch
