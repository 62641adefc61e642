"""A fake installed environment (the e2e journey imports it too): distributions whose
`entry_points.txt` name steplab engine plug-ins, on sys.path in a temporary directory, the way
pip would leave them in site-packages (`<name>.dist-info/METADATA` + `entry_points.txt`). The
example package's source folder goes on sys.path too; nothing is installed into the real
environment. The registry is reloaded with them and, afterwards, without them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from autolabel import registry

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "steplab-plugin-example"

EXAMPLE_POINTS = "[steplab.engines]\nhedges = steplab_hedges.engine:HedgeEngine\n"
BROKEN_POINTS = """[steplab.engines]
collides = tests.autolabel_plugins.fake_plugins:Collides
bad-queue = tests.autolabel_plugins.fake_plugins:BadQueue
bad-schema = tests.autolabel_plugins.fake_plugins:BadSchema
explodes = tests.autolabel_plugins.fake_plugins:explodes
missing = steplab_no_such_module:Engine
liar = tests.autolabel_plugins.fake_plugins:LiesAboutSteps
step-length = tests.autolabel_plugins.fake_plugins:make_counter
"""


def _distribution(site: Path, name: str, version: str, points: str) -> None:
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(points, encoding="utf-8")


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """The example plug-in and a distribution of broken (and one good) plug-ins installed."""
    site = tmp_path / "site-packages"
    _distribution(site, "steplab-plugin-example", "0.1.0", EXAMPLE_POINTS)
    _distribution(site, "steplab-test-plugins", "2.0", BROKEN_POINTS)
    monkeypatch.syspath_prepend(str(EXAMPLE / "src"))
    monkeypatch.syspath_prepend(str(site))
    registry.engines_load()
    yield registry
    monkeypatch.undo()
    for module in [m for m in sys.modules if m.startswith("steplab_hedges")]:
        del sys.modules[module]
    registry.engines_load()
    assert set(registry.ENGINES) == set(registry.BUILTIN_ENGINES)
