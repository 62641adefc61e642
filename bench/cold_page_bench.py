"""What a cold labeling page costs on the wire, in real Chromium against gunicorn.

    .venv/bin/python bench/cold_page_bench.py                 # as `make run` serves it
    .venv/bin/python bench/cold_page_bench.py --identity      # the same without compression
    .venv/bin/python bench/cold_page_bench.py --max-kb 300    # exit 1 above 300 KB

tests/e2e/test_cold_page_weight.py runs it with `--max-kb 300 --frontend-only` in a temporary
folder.

Sets up what `make run` does in a scratch folder (default var/cold_page, kept between runs so
a second run is quick): a SQLite database migrated, `manage.py load_demo`, `manage.py
collectstatic` (gzip and Brotli copies, annotate/static.py), then gunicorn on a free port with
annotate.settings.local and DEBUG off. An annotator signs in in one browser context; a second
context with only its cookies (an empty cache: a cold load) opens the step-labeling demo
project's labeling page and waits until its steps show and the network is idle. Counts every
response's bytes on the wire (Chromium's encodedDataLength: headers and body as transferred),
per resource and in all. `--identity` sends `Accept-Encoding: identity` (what the page weighed
before static files were compressed). Needs frontend/dist (`cd frontend && npm run build`) and
Debian's Chromium at /usr/bin/chromium.
"""

import argparse
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
PROJECT = "Demo: step labeling"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def prepare(folder: Path, *, frontend_only: bool = False) -> dict[str, str]:
    folder.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "annotate.settings.local",
            "DEBUG": "false",
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "CELERY_BROKER_URL": f"sqla+sqlite:///{folder / 'broker.sqlite3'}",
            "STATIC_ROOT": str(folder / "static"),
            "MEDIA_ROOT": str(folder / "media"),
        }
    )
    manage = [sys.executable, str(ROOT / "manage.py")]
    collect = ["collectstatic", "--noinput"]
    if frontend_only:  # the labeling page loads none of the apps' files (admin, Swagger UI)
        collect += ["-i", "admin", "-i", "drf_spectacular_sidecar", "-i", "rest_framework"]
    for args in (["migrate", "--noinput"], ["load_demo"], collect):
        subprocess.run(
            [*manage, *args, "-v", "0"], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL
        )
    return env


def project_id(env: dict[str, str]) -> int:
    code = (
        "import django; django.setup(); from labeling.models import Project; "
        f"print(Project.objects.get(name={PROJECT!r}).pk)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return int(out.stdout.strip().splitlines()[-1])


def wait_up(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"the server at {url} did not answer")


def measure(base: str, label_path: str, *, identity: bool) -> list[tuple[str, str, int]]:
    """(url, content-encoding, bytes on the wire) of every response of one cold load."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
        )
        signin = browser.new_context()
        page = signin.new_page()
        page.goto(f"{base}/login")
        page.get_by_test_id("login-username").fill("annotator")
        page.get_by_test_id("login-password").fill("steplab-annotator")
        page.get_by_test_id("login-submit").click()
        page.wait_for_url(f"{base}/projects")
        cookies = signin.storage_state()
        signin.close()

        cold = browser.new_context(storage_state=cookies, viewport={"width": 1400, "height": 900})
        page = cold.new_page()
        cdp = cold.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        if identity:
            cdp.send("Network.setExtraHTTPHeaders", {"headers": {"Accept-Encoding": "identity"}})
        seen: dict[str, tuple[str, str]] = {}
        sizes: dict[str, int] = {}

        def on_response(event: dict) -> None:
            headers = {k.lower(): v for k, v in event["response"]["headers"].items()}
            seen[event["requestId"]] = (
                event["response"]["url"],
                headers.get("content-encoding", ""),
            )

        def on_finished(event: dict) -> None:
            sizes[event["requestId"]] = int(event["encodedDataLength"])

        cdp.on("Network.responseReceived", on_response)
        cdp.on("Network.loadingFinished", on_finished)
        page.goto(f"{base}{label_path}")
        page.get_by_test_id("step-row").first.wait_for()
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(500)
        browser.close()
    return [(url, encoding, sizes.get(rid, 0)) for rid, (url, encoding) in seen.items()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", type=Path, default=ROOT / "var" / "cold_page")
    parser.add_argument("--identity", action="store_true", help="no compression")
    parser.add_argument("--max-kb", type=float, default=None, help="exit 1 above this")
    parser.add_argument(
        "--frontend-only", action="store_true", help="collect only frontend/dist (quicker)"
    )
    args = parser.parse_args()
    if not (ROOT / "frontend" / "dist" / "index.html").exists():
        raise SystemExit("frontend/dist is missing: cd frontend && npm run build")

    env = prepare(args.dir, frontend_only=args.frontend_only)
    label_path = f"/projects/{project_id(env)}/label"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "annotate.wsgi:application"]
        + ["-b", f"127.0.0.1:{port}", "-w", "1", "--threads", "4"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(f"{base}/login")
        rows = measure(base, label_path, identity=args.identity)
    finally:
        server.terminate()
        server.wait(timeout=30)

    total = sum(size for _, _, size in rows)
    print(f"cold {label_path} ({'identity' if args.identity else 'compressed'}):")
    for url, encoding, size in sorted(rows, key=lambda r: -r[2]):
        print(f"  {size / 1000:8.1f} KB  {encoding or '-':8}  {url.removeprefix(base)}")
    print(f"total: {total / 1000:.1f} KB in {len(rows)} responses")
    if args.max_kb is not None and total > args.max_kb * 1000:
        print(f"above {args.max_kb} KB")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
