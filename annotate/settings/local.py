"""Local development: `make run`."""

from pathlib import Path

from .base import *  # noqa: F401,F403
from .base import STATIC_ROOT, VAR_DIR, env

DEBUG = env.bool("DEBUG", default=True)

# The SQLite file, the broker file and collected static files live under var/.
for _path in (VAR_DIR, Path(STATIC_ROOT)):
    _path.mkdir(parents=True, exist_ok=True)
