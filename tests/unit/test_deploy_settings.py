"""Production settings pass `manage.py check --deploy`; every response carries the CSP."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _check_deploy(tmp_path, **extra_env: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECURE_", "DEBUG"))}
    env.update(
        DJANGO_SETTINGS_MODULE="annotate.settings.production",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="steplab.example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
        **extra_env,
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean(tmp_path):
    result = _check_deploy(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_catches_a_weakened_setting(tmp_path):
    """The check is live: turning HSTS off is reported."""
    result = _check_deploy(tmp_path, SECURE_HSTS_SECONDS="0")
    assert result.returncode != 0
    assert "security.W004" in result.stdout + result.stderr


def test_production_settings_values():
    code = (
        "from annotate.settings import production as p;"
        "print(p.SECURE_HSTS_SECONDS, p.SECURE_HSTS_PRELOAD, p.SECURE_SSL_REDIRECT,"
        " p.SESSION_COOKIE_SECURE, p.CSRF_COOKIE_SECURE, p.SESSION_COOKIE_HTTPONLY,"
        " p.SESSION_COOKIE_SAMESITE, p.X_FRAME_OPTIONS, p.SECURE_REFERRER_POLICY,"
        " p.SECURE_CONTENT_TYPE_NOSNIFF)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SECURE_", "DJANGO_"))}
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "SECRET_KEY": "x" * 60},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.stdout.split() == [
        "31536000",
        "True",
        "True",
        "True",
        "True",
        "True",
        "Lax",
        "DENY",
        "same-origin",
        "True",
    ], out.stderr


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/login", "/api/auth/me/", "/api/schema/", "/api/docs/"])
def test_every_response_has_the_content_security_policy(client, url):
    response = client.get(url)
    policy = response["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["img-src"] == "'self' data:"
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
def test_swagger_ui_has_no_inline_script(admin_client):
    page = admin_client.get("/api/docs/").content.decode()
    assert "<script>" not in page.replace(" ", "")
    assert "?script=" in page or "script=" in page
    script = admin_client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
