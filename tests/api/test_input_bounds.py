"""Every number, string and list an API client sends has a bound, as the schema documents it.

The checked-in schema (docs/openapi.yaml, kept equal to the served one by
test_openapi_snapshot.py) is walked: every request component's integers and numbers have a
minimum and a maximum, strings a maxLength (or an enum / format), arrays a maxItems; so does
every query parameter. A new input field without a bound fails here.
"""

from pathlib import Path

import pytest
import yaml

SCHEMA = yaml.safe_load((Path(__file__).parents[2] / "docs" / "openapi.yaml").read_text())
FORMATS = {"uuid", "date-time", "date", "binary", "uri", "email"}


def _unbounded(where: str, schema: dict, out: list[str]) -> None:
    if not isinstance(schema, dict) or "$ref" in schema:
        return
    kind = schema.get("type")
    if kind in ("integer", "number") and not {"minimum", "maximum"} <= schema.keys():
        out.append(f"{where}: {kind} without minimum and maximum")
    free_text = kind == "string" and "enum" not in schema and schema.get("format") not in FORMATS
    if free_text and "maxLength" not in schema:
        out.append(f"{where}: string without maxLength")
    if kind == "array":
        if "maxItems" not in schema:
            out.append(f"{where}: array without maxItems")
        _unbounded(f"{where}[]", schema.get("items", {}), out)
    for name, prop in (schema.get("properties") or {}).items():
        if not prop.get("readOnly"):
            _unbounded(f"{where}.{name}", prop, out)
    if isinstance(schema.get("additionalProperties"), dict):
        _unbounded(f"{where}{{}}", schema["additionalProperties"], out)
    for key in ("allOf", "oneOf", "anyOf"):
        for part in schema.get(key, []):
            _unbounded(where, part, out)


def test_every_request_field_is_bounded():
    out: list[str] = []
    for name, schema in SCHEMA["components"]["schemas"].items():
        if name.endswith("Request"):
            _unbounded(name, schema, out)
    assert out == []


def test_every_query_parameter_is_bounded():
    out: list[str] = []
    for path, operations in SCHEMA["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "query":
                    where = f"{method.upper()} {path}?{parameter['name']}"
                    _unbounded(where, parameter.get("schema", {}), out)
    assert out == []


@pytest.mark.parametrize("field", ["time_spent_ms"])
def test_the_checker_sees_an_unbounded_field(field):
    out: list[str] = []
    _unbounded("X", {"type": "object", "properties": {field: {"type": "integer"}}}, out)
    assert out == ["X.time_spent_ms: integer without minimum and maximum"]
