"""A mistyped address outside the API (`/nope`, `/project/3`) answers the app's own "Page not
found" page with a 404, not Django's (under DEBUG, `make run`'s default, that was the debug page
listing every URL pattern). The API keeps its JSON 404, the admin and /api its slash redirect."""

from pathlib import Path

import pytest
from django.test import Client, override_settings

INDEX = "<!doctype html><title>steplab</title><div id=root></div>"


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text(INDEX, encoding="utf-8")
    return tmp_path


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("path", ["/nope", "/project/3", "/projects2", "/deep/er/path/"])
def test_an_unknown_page_is_the_apps_not_found_page(dist, debug, path):
    with override_settings(FRONTEND_DIST=dist, DEBUG=debug):
        response = Client().get(path)
    assert response.status_code == 404
    assert response.content.decode() == INDEX
    assert response["Cache-Control"] == "no-cache"


@pytest.mark.django_db
def test_the_api_admin_and_known_pages_keep_their_answers(dist):
    with override_settings(FRONTEND_DIST=dist):
        client = Client()
        api = client.get("/api/nope/")
        page = client.get("/projects/1/label")
        admin = client.get("/admin")
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"
    assert page.status_code == 200 and page.content.decode() == INDEX
    assert admin.status_code == 301 and admin["Location"] == "/admin/"
