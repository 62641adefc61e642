import pytest

from autolabel.consensus import ConsensusPolicy, combine, first_error

POLICY = ConsensusPolicy()


def test_first_error():
    assert first_error([1, 1, -1, None]) == 2
    assert first_error([1, 1, 1]) == -1
    assert first_error([1, None, 1]) is None
    assert first_error([]) is None


def test_mc_and_judge_agree_on_the_first_error():
    result = combine(
        {"rollout:mc:m": [1, 1, -1, None], "judge:judge:j": [1, 1, -1, None]},
        steps=4,
        policy=POLICY,
    )
    assert (result.agreed, result.first_error) == (True, 2)
    assert result.labels == [1, 1, -1, None]


def test_disagreement_and_missing_sources_give_no_labels():
    result = combine({"rollout:a": [1, -1, None], "judge:b": [1, 1, -1]}, steps=3, policy=POLICY)
    assert not result.agreed and result.labels == []
    assert result.first_errors == {"rollout": 1, "judge": 2}
    assert "judge" in combine({"rollout:a": [1, -1]}, steps=2, policy=POLICY).reason


def test_a_symbolic_refutation_before_the_agreed_error_vetoes():
    suggestions = {"rollout:a": [1, 1, -1], "judge:b": [1, 1, -1], "symbolic:s": [-1, None, None]}
    assert not combine(suggestions, steps=3, policy=POLICY).agreed
    relaxed = ConsensusPolicy(symbolic_veto=False)
    assert combine(suggestions, steps=3, policy=relaxed).agreed


def test_all_correct_agreement_and_agents_merge_most_negative():
    result = combine(
        {"rollout:a": [1, 1], "rollout:b": [1, -1], "judge:c": [1, -1]}, steps=2, policy=POLICY
    )
    assert (result.agreed, result.labels) == (True, [1, -1])
    agreed = combine({"rollout:a": [1, 1], "judge:c": [1, 1]}, steps=2, policy=POLICY)
    assert (agreed.first_error, agreed.labels) == (-1, [1, 1])


def test_policy_params_are_checked():
    assert ConsensusPolicy.from_params({"required": ["rollout", "symbolic"]}).required == (
        "rollout",
        "symbolic",
    )
    with pytest.raises(ValueError):
        ConsensusPolicy.from_params({"nope": 1})


def test_refuters_alone_agree_on_an_error_but_vouch_for_no_step():
    """symbolic / code / agent never rate a step correct: their consensus keeps the −1 only,
    not +1s on the steps before it."""
    policy = ConsensusPolicy(required=("symbolic", "code"))
    result = combine(
        {"symbolic:s": [None, None, -1, None], "code:c": [None, None, -1, None]},
        steps=4,
        policy=policy,
    )
    assert (result.agreed, result.first_error, result.labels) == (True, 2, [None, None, -1, None])
    mixed = ConsensusPolicy(required=("rollout", "symbolic"))
    result = combine({"rollout:m": [1, -1], "symbolic:s": [None, -1]}, steps=2, policy=mixed)
    assert result.labels == [1, -1]
