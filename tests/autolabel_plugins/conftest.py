"""The `installed` fixture: the example plug-in and some broken ones in a fake installed
environment (fake_install.py)."""

from tests.autolabel_plugins.fake_install import EXAMPLE, installed

__all__ = ["EXAMPLE", "installed"]
