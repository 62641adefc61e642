"""What GET /api/autolabel-engines/ lists: every engine this server runs, built-in or plug-in,
with a plug-in's parameter schema for the run dialog's form (autolabel/plugins/schema.py)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from autolabel.plugins.schema import TYPES, schema_json
from autolabel.registry import BUILTIN_ENGINES, PLUGINS
from labeling.models import SuggestionSource


class EngineParamOutput(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.ChoiceField(choices=TYPES)
    default = serializers.JSONField(help_text="A value of the field's type.")
    label = serializers.CharField()
    help = serializers.CharField()
    minimum = serializers.FloatField(required=False, help_text="int and float fields.")
    maximum = serializers.FloatField(required=False, help_text="int and float fields.")
    max_length = serializers.IntegerField(required=False, help_text="string fields.")
    choices = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="choice fields."
    )


class EngineOutput(serializers.Serializer):
    name = serializers.CharField(help_text="The source name a run names and suggestions carry.")
    label = serializers.CharField()
    description = serializers.CharField()
    queue = serializers.CharField(help_text="The Celery queue its chunks run on.")
    builtin = serializers.BooleanField()
    plugin = serializers.CharField(
        allow_null=True, help_text="A plug-in's distribution and version; null for a built-in."
    )
    domains = serializers.ListField(
        child=serializers.CharField(),
        help_text="The project domains a plug-in applies to (empty: every domain). Built-ins "
        "follow the project's domain_sources.",
    )
    params = EngineParamOutput(
        many=True,
        allow_null=True,
        help_text="A plug-in's parameter form; null for a built-in (which has its own form).",
    )


def engines_listed() -> list[dict[str, Any]]:
    labels = dict(SuggestionSource.choices)
    builtin = [
        {
            "name": name,
            "label": labels.get(name, name.capitalize()),
            "description": "",
            "queue": str(engine.queue),
            "builtin": True,
            "plugin": None,
            "domains": [],
            "params": None,
        }
        for name, engine in BUILTIN_ENGINES.items()
    ]
    plugins = [
        {
            "name": p.name,
            "label": p.label,
            "description": p.description,
            "queue": p.queue,
            "builtin": False,
            "plugin": p.distribution,
            "domains": list(p.domains),
            "params": schema_json(p.schema),
        }
        for p in PLUGINS.values()
    ]
    return builtin + plugins
