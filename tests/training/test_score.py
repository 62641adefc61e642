import pytest
import torch

from training.data import Tokenization
from training.model import load_model, load_tokenizer, save_prm, token_logits
from training.packing import collate_padded
from training.score import PRMScorer

PROBLEM = "What is 2 + 3?"
SOLUTIONS = [
    ["add the two numbers", "so we get 5"],
    ["oops check result 6"],
    ["multiply by three", "then add", "total 9", "so 9"],
    [],
]


def _reference_scores(model, tokenizer, steps):
    """The scores computed by hand: one forward pass, softmax at each step's end."""
    sep = tokenizer("\n\n", add_special_tokens=False).input_ids
    ids = tokenizer(PROBLEM, add_special_tokens=False).input_ids
    ends = []
    for step in steps:
        ids += tokenizer(step, add_special_tokens=False).input_ids + sep
        ends.append(len(ids) - 1)
    with torch.no_grad():
        logits = model(input_ids=torch.tensor([ids]), use_cache=False).logits[0]
    return logits.softmax(-1)[ends, 1].tolist()


def test_save_load_round_trip_gives_the_same_scores(tiny_lm, tmp_path):
    tokenizer = load_tokenizer(tiny_lm)
    for head in ("linear", "mlp2"):
        torch.manual_seed(1)
        model = load_model(tiny_lm, head=head).eval()
        if head == "mlp2":
            assert isinstance(model.score, torch.nn.Sequential)
        with torch.no_grad():  # make the head non-trivial so a lost head would show
            for p in model.score.parameters():
                p.add_(torch.randn_like(p))
        expected = [_reference_scores(model, tokenizer, s) if s else [] for s in SOLUTIONS]
        out = tmp_path / head
        save_prm(model, tokenizer, out, settings=Tokenization(step_separator="\n\n"))
        scorer = PRMScorer(out, device="cpu", batch_size=2)
        got = scorer.score(PROBLEM, SOLUTIONS)
        assert [len(s) for s in got] == [2, 1, 4, 0]
        for g, e in zip(got, expected, strict=True):
            assert g == pytest.approx(e, abs=1e-5)
        assert scorer.model.config.prm_head == head
        assert len(set(map(tuple, got[:3]))) == 3


def test_scores_do_not_depend_on_batching(tiny_lm, tmp_path):
    tokenizer = load_tokenizer(tiny_lm)
    save_prm(load_model(tiny_lm), tokenizer, tmp_path, settings=Tokenization())
    scorer = PRMScorer(tmp_path, device="cpu")
    one = scorer.score(PROBLEM, SOLUTIONS, batch_size=1)
    many = scorer.score(PROBLEM, SOLUTIONS, batch_size=4)
    for a, b in zip(one, many, strict=True):
        assert torch.allclose(torch.tensor(a), torch.tensor(b), atol=1e-5)


def test_padded_batch_matches_single_forward(tiny_lm):
    tokenizer = load_tokenizer(tiny_lm)
    model = load_model(tiny_lm).eval()
    from training.data import parse_row, tokenize_rows

    rows = [
        parse_row({"prompt": PROBLEM, "completions": s, "labels": [1] * len(s)}, "x")
        for s in SOLUTIONS[:3]
    ]
    examples, _ = tokenize_rows(rows, tokenizer, Tokenization(), log=False)
    with torch.no_grad():
        batch = token_logits(model, collate_padded(examples, tokenizer.pad_token_id))
        for i, e in enumerate(examples):
            single = token_logits(model, collate_padded([e], tokenizer.pad_token_id))[0]
            torch.testing.assert_close(batch[i, : len(e)], single, atol=1e-4, rtol=1e-4)
