"""The hedges engine on its own: what it flags, what it leaves, what its params change."""

from steplab_hedges import HedgeEngine, hedges_in

from autolabel.engines.base import SolutionInput
from autolabel.plugins.schema import params_values, schema_of

ENGINE = HedgeEngine()
SCHEMA = schema_of(ENGINE.params)


def run(steps, **params):
    values = params_values(SCHEMA, params)  # defaults filled, as steplab's worker does
    return ENGINE(SolutionInput(problem="p", gold_answer="", steps=tuple(steps)), values)


def test_hedges_are_found_whole_words_longest_first():
    assert hedges_in("I think it is probably 4.") == ["I think", "probably"]
    assert hedges_in("I\u2019m not sure, maybe.") == ["I'm not sure", "maybe"]
    assert hedges_in("Maybes and thinking: none here.") == []


def test_hedging_steps_get_evidence_and_the_rest_is_withdrawn():
    result = run(["2 + 2 = 4.", "So the answer is probably 5, I think."])
    assert result.source == "hedges" and result.agent == "hedges:v1"
    (flag,) = result.suggestions
    assert flag.step_index == 1 and flag.value is None
    assert flag.evidence["kind"] == "hedge"
    assert flag.evidence["phrases"] == ["probably", "I think"]
    assert flag.evidence["summary"] == "Hedges: probably, I think"
    assert result.withdrawn == [0]


def test_neutral_verdict_min_hits_density_extra_phrases_and_case():
    steps = ["Probably 3.", "x is probably 3, I think.", "Ballpark 10."]
    assert [s.value for s in run(steps, verdict="neutral").suggestions] == [0, 0]
    assert [s.step_index for s in run(steps, min_hits=2).suggestions] == [1]
    many_words = "The value we get after all of this careful work is probably 3."
    assert run([many_words], min_per_100_words=10.0).suggestions == []
    assert [s.step_index for s in run(steps, extra_phrases="ballpark").suggestions] == [0, 1, 2]
    assert [s.step_index for s in run(steps, case_sensitive=True).suggestions] == [1]


def test_the_schema_refuses_values_out_of_bounds():
    import pytest

    from autolabel.plugins.schema import ParamError

    for bad in (
        {"min_hits": 0},
        {"min_hits": 21},
        {"min_per_100_words": -1},
        {"verdict": "wrong"},
        {"extra_phrases": "x" * 501},
        {"case_sensitive": "yes"},
        {"nope": 1},
    ):
        with pytest.raises(ParamError):
            params_values(SCHEMA, bad)
