"""Public PRMs scored by their published conventions (training.public_prm / public_scorer),
checked against each model card's own recipe run by hand on tiny models built here."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tests.training.public_tiny import (  # noqa: E402
    build_qwen_prm,
    build_seq_cls,
    build_shepherd_prm,
)
from training.public_prm import (  # noqa: E402
    QWEN_SYSTEM,
    Convention,
    InputError,
    shepherd_text,
)
from training.public_scorer import InputTooLong, PublicPRMScorer  # noqa: E402

PROBLEM = "Problem 2: what is 2 + 2?"
STEPS = ["add the two numbers 2.", "then multiply by three 4.", "so we get the total 4."]
ITEMS = [
    (PROBLEM, STEPS),
    ("Problem 5: what is 5 + 5?", STEPS[:1]),
    ("Problem 7: what is 7 + 7?", STEPS[1:] + ["check the result 14."]),
    (PROBLEM, []),
]


@pytest.fixture(scope="module")
def qwen(tmp_path_factory: pytest.TempPathFactory):
    return build_qwen_prm(tmp_path_factory.mktemp("qwen-prm"))


@pytest.fixture(scope="module")
def shepherd(tmp_path_factory: pytest.TempPathFactory):
    return build_shepherd_prm(tmp_path_factory.mktemp("shepherd-prm"))


def card_step_rewards(model, tokenizer, problem: str, steps: list[str]) -> list[float]:
    """Qwen2.5-Math-PRM-7B's model card: the conversation, encode, make_step_rewards."""
    messages = [
        {"role": "system", "content": QWEN_SYSTEM},
        {"role": "user", "content": problem},
        {"role": "assistant", "content": "<extra_0>".join(steps) + "<extra_0>"},
    ]
    conversation = tokenizer.apply_chat_template(
        messages, tokenize=False, add_generation_prompt=False
    )
    input_ids = tokenizer.encode(conversation, return_tensors="pt")
    with torch.no_grad():
        logits = model(input_ids=input_ids).logits
    token_masks = input_ids == tokenizer.encode("<extra_0>")[0]
    probabilities = logits.softmax(-1) * token_masks.unsqueeze(-1)
    sample = probabilities[0]
    return sample[sample != 0].view(-1, 2)[:, 1].tolist()


def test_qwen_scores_are_the_model_cards_step_rewards(qwen):
    directory, model = qwen
    scorer = PublicPRMScorer(directory, convention=Convention("qwen"), batch_size=2)
    assert isinstance(scorer.model.score, torch.nn.Sequential)  # the two-layer head, loaded
    got = scorer.score_many(ITEMS)
    assert got[3] == []
    for (problem, steps), scores in zip(ITEMS[:3], got, strict=False):
        expected = card_step_rewards(model, scorer.tokenizer, problem, steps)
        assert len(scores) == len(steps)
        assert scores == pytest.approx(expected, abs=1e-5)
    assert len({round(s, 4) for row in got for s in row}) > 3  # not one constant


def test_qwen_scores_sit_at_each_steps_separator(qwen):
    """Causal attention: a step's score reads its own separator, so changing step 3 moves
    score 3 only; a separator typed inside a step does not add a score."""
    scorer = PublicPRMScorer(qwen[0], convention=Convention("qwen"))
    first, changed, typed = scorer.score_many(
        [
            (PROBLEM, STEPS),
            (PROBLEM, STEPS[:2] + ["oops the total is 5."]),
            (PROBLEM, [STEPS[0] + "<extra_0>", *STEPS[1:]]),
        ]
    )
    assert changed[:2] == pytest.approx(first[:2], abs=1e-6)
    assert changed[2] != pytest.approx(first[2], abs=1e-4)
    assert len(typed) == 3


def test_a_token_classifier_with_a_linear_head(tmp_path: Path):
    directory, model = build_qwen_prm(tmp_path / "linear", head="linear")
    scorer = PublicPRMScorer(directory, convention=Convention("qwen"))
    assert isinstance(scorer.model.score, torch.nn.Linear)
    (scores,) = scorer.score_many([(PROBLEM, STEPS)])
    assert scores == pytest.approx(card_step_rewards(model, scorer.tokenizer, PROBLEM, STEPS))


def readme_step_scores(model, tokenizer, question: str, output: str) -> list[float]:
    """math-shepherd-mistral-7b-prm's README, with this tokenizer's "+"/"-" and tag ids."""
    candidate_tokens = [tokenizer.encode("a +")[-1], tokenizer.encode("a -")[-1]]
    (step_tag_id,) = tokenizer.encode(" ки")
    input_id = torch.tensor([tokenizer.encode(f"{question} {output}")])
    with torch.no_grad():
        logits = model(input_id).logits[:, :, candidate_tokens]
        scores = logits.softmax(dim=-1)[:, :, 0]
        return scores[input_id == step_tag_id].tolist()


def test_math_shepherd_scores_are_the_readmes(shepherd):
    directory, model = shepherd
    scorer = PublicPRMScorer(directory, convention=Convention("math-shepherd"), batch_size=3)
    got = scorer.score_many(ITEMS)
    for (problem, steps), scores in zip(ITEMS[:3], got, strict=False):
        output = "\n".join(f"Step {k}: {s} ки" for k, s in enumerate(steps, 1))
        assert scores == pytest.approx(
            readme_step_scores(model, scorer.tokenizer, problem, output), abs=1e-5
        )
    assert got[3] == []


def test_math_shepherd_finds_its_tags_not_the_same_letters_in_a_step(shepherd):
    convention = Convention("math-shepherd")
    steps = ["Step 1: считаем задачки 3.", "then multiply by 4."]  # already numbered, then not
    text, _ = shepherd_text(convention, PROBLEM, steps)
    assert text == f"{PROBLEM} Step 1: считаем задачки 3. ки\nStep 2: then multiply by 4. ки"
    scorer = PublicPRMScorer(shepherd[0], convention=convention)
    (scores,) = scorer.score_many([(PROBLEM, steps)])
    output = text[len(PROBLEM) + 1 :]
    assert scores == pytest.approx(
        readme_step_scores(shepherd[1], scorer.tokenizer, PROBLEM, output), abs=1e-5
    )


@pytest.mark.parametrize("num_labels", [1, 2])
@pytest.mark.parametrize("template", ["chat", "plain"])
def test_seq_cls_scores_each_prefix_alone(tmp_path: Path, num_labels: int, template: str):
    """One forward per prefix; padded batches give what each prefix alone gives."""
    directory, model = build_seq_cls(tmp_path / "cls", num_labels=num_labels)
    convention = Convention("seq-cls", template=template)
    scorer = PublicPRMScorer(directory, convention=convention, batch_size=4)
    got = scorer.score_many(ITEMS)
    tokenizer = scorer.tokenizer
    for (problem, steps), scores in zip(ITEMS[:3], got, strict=False):
        expected = []
        for i in range(len(steps)):
            answer = "\n\n".join(steps[: i + 1])
            if template == "chat":
                messages = [
                    {"role": "user", "content": problem},
                    {"role": "assistant", "content": answer},
                ]
                text = tokenizer.apply_chat_template(messages, tokenize=False)
                ids = tokenizer.encode(text, add_special_tokens=False)
            else:
                ids = tokenizer.encode(f"{problem}\n\n{answer}")
            with torch.no_grad():
                logits = model(input_ids=torch.tensor([ids])).logits[0]
            p = logits.sigmoid()[0] if num_labels == 1 else logits.softmax(-1)[1]
            expected.append(float(p))
        assert scores == pytest.approx(expected, abs=1e-5)


def test_an_input_past_max_length_is_named_not_truncated(qwen):
    scorer = PublicPRMScorer(qwen[0], convention=Convention("qwen"), max_length=40)
    with pytest.raises(InputTooLong, match="tokens, more than max_length 40") as found:
        scorer.score_many([(PROBLEM * 5, STEPS)])
    assert found.value.index == 0


def test_a_convention_the_tokenizer_cannot_render(tmp_path: Path):
    directory, _ = build_seq_cls(tmp_path / "plain", num_labels=1, chat=False)
    scorer = PublicPRMScorer(directory, convention=Convention("seq-cls", template="chat"))
    with pytest.raises(InputError, match="no chat template"):
        scorer.score_many([(PROBLEM, STEPS)])
    with pytest.raises(ValueError, match="convention must be one of"):
        Convention("steplab")
