"""Static files: WhiteNoise serving the collected, pre-compressed copies, hashed ones for a year.

`manage.py collectstatic` (`make run`, the Dockerfile) copies the Vite build (frontend/dist)
and the apps' files into STATIC_ROOT and writes a gzip and a Brotli copy of each compressible
file beside it (whitenoise.storage.CompressedStaticFilesStorage); WhiteNoise answers a request
with the smallest copy its Accept-Encoding allows. Vite names what it emits under assets/ with a
hash of the content (`index-BXk3nD2a.js`), so those answer `Cache-Control: max-age=31536000,
public, immutable`; every other file (favicon.svg, admin and Swagger UI assets) the short
WHITENOISE_MAX_AGE. The SPA's index.html itself is served by labeling.views.spa with
`Cache-Control: no-cache`, so a new build's asset names reach a browser at once.

WhiteNoise's own middleware lets the finders' copies (frontend/dist, uncompressed) replace the
collected ones when WHITENOISE_USE_FINDERS is on; here the collected copies come first and the
finders only fill in what collectstatic has not copied (a build made after the last collect).
"""

import os
import re
from collections.abc import Iterator
from typing import Any

from django.contrib.staticfiles import finders
from whitenoise.base import WhiteNoise
from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.storage import CompressedStaticFilesStorage

ONE_YEAR_S = 365 * 24 * 3600
MTIME_SLACK_NS = 1_000_000
# Vite's default names under assets/: `[name]-[hash].[ext]`, the hash 8 characters of
# base64url (letters, digits, `-`, `_`).
VITE_HASHED = re.compile(r"^assets/.+-[\w-]{8}\.[A-Za-z0-9]+$")


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise with a year (not ten) for immutable files and collected files first."""

    FOREVER = ONE_YEAR_S

    def immutable_file_test(self, path: str, url: str) -> bool:
        """Whether a URL names a file whose name changes with its content (Vite's assets/)."""
        return url.startswith(self.static_prefix) and bool(
            VITE_HASHED.match(url[len(self.static_prefix) :])
        )

    def add_files_from_finders(self) -> None:
        collected = dict(self.files)
        super().add_files_from_finders()
        self.files.update(collected)

    def candidate_paths_for_url(self, url: str) -> Iterator[str]:
        # Autorefresh mode (WHITENOISE_AUTOREFRESH): STATIC_ROOT's copy before the finders'.
        yield from WhiteNoise.candidate_paths_for_url(self, url)
        if self.use_finders and url.startswith(self.static_prefix):
            path = finders.find(url[len(self.static_prefix) :])
            if path:
                yield path


class IncrementalCompressedStorage(CompressedStaticFilesStorage):
    """WhiteNoise's compressing storage that compresses only what changed since the last collect.

    WhiteNoise compresses every file again at every collectstatic (about 40 s of Brotli on two
    cores); `make run` collects at each start, so a file whose .gz or .br is as new as itself
    is left as it is. (WhiteNoise gives a compressed copy its source's modification time,
    rounded through a float: hence the millisecond of slack. A file collectstatic copies again
    is newer than its old copies by far more.)
    """

    def post_process(self, paths: dict[str, Any], dry_run: bool = False, **options: Any) -> Any:
        changed = {name: value for name, value in paths.items() if not self._compressed(name)}
        return super().post_process(changed, dry_run=dry_run, **options)

    def _compressed(self, name: str) -> bool:
        full_path = self.path(name)
        try:
            source = os.stat(full_path).st_mtime_ns
        except FileNotFoundError:
            return False
        for suffix in (".gz", ".br"):
            try:
                if os.stat(full_path + suffix).st_mtime_ns >= source - MTIME_SLACK_NS:
                    return True
            except FileNotFoundError:
                continue
        return False
