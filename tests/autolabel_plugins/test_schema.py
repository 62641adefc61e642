"""The parameter schema a plug-in declares: the declaration's own checks (a plug-in with a
bad one is skipped) and the bounds a run's values must keep."""

import math

import pytest

from autolabel.plugins.schema import (
    PARAMS_MAX,
    Param,
    ParamError,
    params_values,
    schema_json,
    schema_of,
)

SCHEMA = schema_of(
    [
        Param("n", "int", 3, minimum=1, maximum=10),
        Param("t", "float", 0.5, minimum=0.0, maximum=1.0),
        Param("on", "bool", True),
        {"name": "word", "type": "string", "default": "", "max_length": 5},
        {"name": "mode", "type": "choice", "default": "a", "choices": ["a", "b"]},
    ]
)


@pytest.mark.parametrize(
    ("declared", "problem"),
    [
        ([Param("n", "int", 3)], "minimum must be an integer"),
        ([Param("n", "int", 3, minimum=1, maximum=2)], "default: n must be an integer from 1"),
        ([Param("n", "int", 3, minimum=5, maximum=1)], "minimum must not be more than maximum"),
        ([Param("n", "int", 3, minimum=1, maximum=10**12)], "maximum must be an integer"),
        ([Param("t", "float", 0.5, minimum=0, maximum=math.inf)], "maximum must be a number"),
        ([Param("s", "string", "")], "max_length must be an integer from 1 to 10000"),
        ([Param("s", "string", "", max_length=10**6)], "max_length must be an integer"),
        ([Param("c", "choice", "x")], "choices must be a list of 1 to 50"),
        ([Param("c", "choice", "x", choices=("a",))], "default: c must be one of a"),
        ([Param("c", "choice", "a", choices=("a", "a"))], "choices must not repeat"),
        ([Param("b", "bool", "yes")], "default: b must be true or false"),
        ([Param("x", "date", "")], "type must be one of int, float, bool, string, choice"),
        ([Param("Bad Name", "bool", True)], "must be a lowercase identifier"),
        ([Param("b", "bool", True), Param("b", "bool", False)], "declared twice"),
        ([Param("b", "bool", True, label="x" * 101)], "label must be a string"),
        ([{"name": "b", "type": "bool", "default": True, "colour": "red"}], "unexpected"),
        ("n:int", "params must be a list of Param"),
        ([Param(f"p{i}", "bool", True) for i in range(PARAMS_MAX + 1)], "at most 20 fields"),
    ],
)
def test_a_bad_declaration_is_refused_with_its_reason(declared, problem):
    with pytest.raises(ParamError, match=problem):
        schema_of(declared)


def test_values_get_defaults_and_keep_their_type():
    assert params_values(SCHEMA, {}) == {"n": 3, "t": 0.5, "on": True, "word": "", "mode": "a"}
    assert params_values(SCHEMA, {"t": 1, "mode": "b"})["t"] == 1.0


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"n": 0}, "n must be an integer from 1 to 10, got 0"),
        ({"n": 2**63}, "n must be an integer from 1 to 10"),
        ({"n": True}, "n must be an integer"),
        ({"n": 2.0}, "n must be an integer"),
        ({"t": math.nan}, "t must be a number from 0 to 1"),
        ({"t": 1.5}, "t must be a number from 0 to 1"),
        ({"t": "0.5"}, "t must be a number"),
        ({"on": 1}, "on must be true or false"),
        ({"word": "toolong"}, "word must be a string of at most 5 characters"),
        ({"word": 5}, "word must be a string"),
        ({"word": "a\x00"}, "word must not contain NUL"),
        ({"mode": "c"}, "mode must be one of a, b, got 'c'"),
        ({"other": 1}, r"unknown params \['other'\]; allowed: mode, n, on, t, word"),
    ],
)
def test_values_out_of_bounds_are_refused(given, message):
    with pytest.raises(ParamError, match=message):
        params_values(SCHEMA, given)


def test_params_must_be_an_object():
    with pytest.raises(ParamError, match="must be an object"):
        params_values(SCHEMA, ["n"])


def test_the_schema_as_the_api_lists_it():
    assert schema_json(SCHEMA) == [
        {
            "name": "n",
            "type": "int",
            "default": 3,
            "label": "n",
            "help": "",
            "minimum": 1,
            "maximum": 10,
        },
        {
            "name": "t",
            "type": "float",
            "default": 0.5,
            "label": "t",
            "help": "",
            "minimum": 0.0,
            "maximum": 1.0,
        },
        {"name": "on", "type": "bool", "default": True, "label": "on", "help": ""},
        {
            "name": "word",
            "type": "string",
            "default": "",
            "label": "word",
            "help": "",
            "max_length": 5,
        },
        {
            "name": "mode",
            "type": "choice",
            "default": "a",
            "label": "mode",
            "help": "",
            "choices": ["a", "b"],
        },
    ]
