"""Static files as `make run` and production serve them (annotate/static.py).

collectstatic with the production storage writes gzip and Brotli copies (compressing only what
changed since the last collect); WhiteNoise answers with them, Vite's hashed assets cached for a
year as immutable, everything else (and the SPA's index.html) not.
"""

import os
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

HASHED = "assets/index-B1x_k9-Q.js"
SCRIPT = "export const rows = [" + ",".join(f'{{"step": {i}, "ok": true}}' for i in range(3000))
INDEX = f'<!doctype html><script type="module" src="/static/{HASHED}"></script>'


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    """A Vite build: index.html, a favicon and one hashed script under assets/."""
    root = tmp_path / "dist"
    (root / "assets").mkdir(parents=True)
    (root / HASHED).write_text(SCRIPT + "];\n")
    (root / "index.html").write_text(INDEX)
    (root / "favicon.svg").write_text(
        "<svg xmlns='http://www.w3.org/2000/svg'>" + " " * 2000 + "</svg>"
    )
    return root


@pytest.fixture
def production_static(dist: Path, tmp_path: Path):
    """Settings with the production storage, collecting `dist` into tmp.

    Only `dist`: Brotli on every app's files (admin, Swagger UI) would take a minute.
    """
    with override_settings(
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
        STATIC_ROOT=str(tmp_path / "static"),
        STATICFILES_DIRS=[dist],
        FRONTEND_DIST=dist,
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "annotate.static.IncrementalCompressedStorage"},
        },
    ):
        yield tmp_path / "static"


def collect() -> str:
    out = StringIO()
    call_command("collectstatic", "--noinput", stdout=out)
    return out.getvalue()


def test_collectstatic_writes_gzip_and_brotli_copies_and_redoes_only_what_changed(
    production_static: Path, dist: Path
):
    collect()
    script = production_static / HASHED
    for suffix in (".gz", ".br"):
        copy = Path(f"{script}{suffix}")
        assert copy.exists() and copy.stat().st_size < script.stat().st_size / 5
    assert Path(f"{production_static / 'index.html'}.br").exists()
    brotli_mtime = Path(f"{script}.br").stat().st_mtime_ns

    assert "post-processed" not in collect()  # nothing changed: nothing compressed again
    assert Path(f"{script}.br").stat().st_mtime_ns == brotli_mtime

    (dist / HASHED).write_text(SCRIPT + ', {"step": -1}];\n')
    later = os.stat(dist / HASHED).st_mtime + 5  # as a rebuild a few seconds later
    os.utime(dist / HASHED, (later, later))
    assert "2 post-processed" in collect()  # its .gz and .br, nothing else
    assert Path(f"{script}.br").stat().st_mtime_ns != brotli_mtime


@pytest.mark.django_db
@pytest.mark.parametrize("autorefresh", [False, True])
def test_hashed_assets_are_compressed_and_immutable_and_the_rest_is_not(
    production_static: Path, dist: Path, autorefresh: bool
):
    collect()
    # Built after the last collect: served from frontend/dist by the finders, uncompressed.
    (dist / "assets" / "late-Zq8_v3Xa.js").write_text(SCRIPT + "];\n")
    with override_settings(WHITENOISE_AUTOREFRESH=autorefresh):
        client = Client()  # its middleware reads the settings above
        brotli = client.get(f"/static/{HASHED}", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        gzip = client.get(f"/static/{HASHED}", HTTP_ACCEPT_ENCODING="gzip")
        plain = client.get(f"/static/{HASHED}")
        late = client.get("/static/assets/late-Zq8_v3Xa.js", HTTP_ACCEPT_ENCODING="br")
        favicon = client.get("/static/favicon.svg", HTTP_ACCEPT_ENCODING="br")
        collected_index = client.get("/static/index.html")
        page = client.get("/projects/1/label")

    assert brotli.status_code == gzip.status_code == plain.status_code == 200
    assert brotli["Content-Encoding"] == "br" and gzip["Content-Encoding"] == "gzip"
    assert "Content-Encoding" not in plain
    assert int(brotli["Content-Length"]) < int(plain["Content-Length"]) / 5
    for response in (brotli, gzip, plain, late):
        assert response["Cache-Control"] == "max-age=31536000, public, immutable"
        assert response is late or "Accept-Encoding" in response["Vary"]
    assert late.status_code == 200 and "Content-Encoding" not in late
    assert favicon["Content-Encoding"] == "br"
    for response in (favicon, collected_index):
        assert "immutable" not in response["Cache-Control"]
        assert "31536000" not in response["Cache-Control"]
    assert page.status_code == 200 and page["Cache-Control"] == "no-cache"
    assert f"/static/{HASHED}" in page.content.decode()
