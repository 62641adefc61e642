"""Discovery for real: distributions on sys.path whose entry points name engines; the
registry lists the good ones and skips, with a logged reason, the ones that break the
contract, and the web process's source lists follow it."""

import logging
import os
import subprocess
import sys

import pytest

from autolabel.registry import BUILTIN_ENGINES, TAKEN_NAMES, chunk_queue
from labeling.models import SuggestionSource
from labeling.rules.machine_sources import machine_sources, plugin_sources
from tests.autolabel_plugins.fake_install import EXAMPLE


def test_taken_names_cover_every_builtin_source():
    """A plug-in may not write under a built-in source's name, engine or not."""
    assert set(SuggestionSource.values) <= {*BUILTIN_ENGINES, *TAKEN_NAMES}


def test_without_plugins_only_builtins():
    from autolabel.registry import ENGINES, PLUGINS

    assert set(ENGINES) == set(BUILTIN_ENGINES) and PLUGINS == {}
    assert plugin_sources() == ()
    assert machine_sources() == tuple(SuggestionSource.values)


def test_the_registry_lists_installed_plugins_and_skips_broken_ones(installed, caplog):
    caplog.set_level(logging.ERROR, logger="autolabel.plugins.discovery")
    installed.engines_load()
    assert {"hedges", "step-length", "liar"} <= set(installed.ENGINES)
    hedges = installed.PLUGINS["hedges"]
    assert hedges.distribution == "steplab-plugin-example 0.1.0"
    assert hedges.queue == "default" and hedges.label == "Hedging language"
    assert [p.name for p in hedges.schema] == [
        "verdict",
        "min_hits",
        "min_per_100_words",
        "extra_phrases",
        "case_sensitive",
    ]
    # A factory's engine, on the queue it asked for.
    assert installed.PLUGINS["step-length"].queue == "rollouts"
    assert chunk_queue(["symbolic", "step-length"]) == "rollouts"
    # The built-in keeps its name: the colliding plug-in is refused, not swapped in.
    assert installed.ENGINES["symbolic"] is BUILTIN_ENGINES["symbolic"]
    reasons = {f.entry_point.split(" = ")[0]: f.error for f in installed.PLUGIN_FAILURES}
    assert set(reasons) == {"collides", "bad-queue", "bad-schema", "explodes", "missing"}
    assert "'symbolic' is a built-in source's" in reasons["collides"]
    assert "queue must be one of default, rollouts, gpu" in reasons["bad-queue"]
    assert "minimum must be an integer" in reasons["bad-schema"]
    assert "RuntimeError: cannot reach the licence server" in reasons["explodes"]
    assert "ModuleNotFoundError" in reasons["missing"]
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "skipped plug-in explodes" in logged and "steplab-test-plugins 2.0" in logged
    # labeling's lists of sources take the plug-ins' names (and only the ones that loaded).
    assert {"hedges", "step-length"} <= set(machine_sources())
    assert "bad-queue" not in machine_sources()


def test_export_and_explorer_filters_take_plugin_sources(installed):
    from labeling.errors import ValidationFailed
    from labeling.exporters.options import filters_from

    assert filters_from({"auto_sources": ["hedges", "judge"]}).auto_sources == ("hedges", "judge")
    with pytest.raises(ValidationFailed, match="unknown source 'bad-queue'"):
        filters_from({"auto_sources": ["bad-queue"]})

    from labeling.api.explorer import ExplorerFilterInput

    assert ExplorerFilterInput(data={"verdict_source": "hedges"}).is_valid()
    refused = ExplorerFilterInput(data={"verdict_source": "bad-queue"})
    assert not refused.is_valid() and "verdict_source" in refused.errors


def test_consensus_may_require_a_plugin_source(installed):
    from autolabel.engines.checks import check_run_params

    check_run_params(["hedges", "consensus"], {"consensus": {"required": ["hedges", "judge"]}})
    with pytest.raises(ValueError, match="unknown source 'bad-queue'"):
        check_run_params(["consensus"], {"consensus": {"required": ["bad-queue"]}})


def test_the_example_package_passes_its_own_tests():
    """examples/steplab-plugin-example's tests, as its author runs them (pytest in its folder)."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:django"],
        cwd=EXAMPLE,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "failed" not in done.stdout
