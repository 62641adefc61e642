"""A solution of thousands of steps: the labeling page in real Chromium, and the server's paths.

    .venv/bin/python bench/long_solution_bench.py                   # 3,000 steps, 3 loads a mode
    .venv/bin/python bench/long_solution_bench.py --steps 5000 --repeat 5
    .venv/bin/python bench/long_solution_bench.py --server-only     # no browser
    .venv/bin/python bench/long_solution_bench.py --browser-only    # only the page

The page: one annotator's 3,000-step draft (math in every step, typeset by KaTeX, a suggestion
on each) opened in Chromium against gunicorn, alternately with every step rendered (what the
page did before issue 28, and still does on *render all*) and windowed (the steps near the view,
label/VirtualList.tsx). Per load: the time from navigation until the page has answered a key
(`j` moved the current step), the DOM's element count, the JS heap, and the time `End` takes to
make the last step current. Ratios are all-rendered / windowed, measured in the same run.

The server: the claim's payload, a draft of every step and the submit, for solutions of 1,000
and 5,000 steps (`--small`, `--large`), with the import of one such solution. A linear path
costs about 5× as much for 5× the steps; a quadratic one, 25×.

Sets up a throwaway database (bench/harness.py: PostgreSQL where DATABASE_URL names one, else
SQLite), collects the frontend's static files into a scratch folder and runs gunicorn on it.
Needs frontend/dist (`npm --prefix frontend run build`) and Debian's Chromium.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
from cold_page_bench import CHROMIUM, free_port, wait_up  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "bench-annotator-pw"


def step_text(k: int) -> str:
    return f"Step {k + 1}: from the last result, $x_{{{k + 1}}} = \\frac{{{k + 2}}}{{2}} + {k}$."


def write_solution(path: Path, name: str, steps: int, text=step_text) -> None:
    row = {
        "id": name,
        "problem": f"Follow the recurrence ({name}) to the end.",
        "answer": "done",
        "steps": [text(k) for k in range(steps)],
        "labels": [1] * steps,  # imported as suggestions
        "generator": "bench",
    }
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")


def new_project(
    name: str, user, solutions: list[int], tmp: Path, text=step_text
) -> tuple[object, list[float]]:
    """A project with one solution of each size; the import time of each (ms)."""
    from labeling.models import Project, ProjectMembership
    from labeling.services.imports import import_file

    project = Project.objects.create(name=name, overlap=1, first_error_mode=False)
    ProjectMembership.objects.create(project=project, user=user, role="annotator")
    times = []
    for i, steps in enumerate(solutions):
        path = tmp / f"{name}-{i}.jsonl"
        write_solution(path, f"{name}-{i}", steps, text)
        started = time.perf_counter()
        import_file(project=project, path=path, fmt="steplab", labels_as="suggestions")
        times.append((time.perf_counter() - started) * 1000)
    return project, times


# --- the server's paths ---------------------------------------------------------------------


def trace_text(k: int) -> str:
    """An agent trace's step that reuses the result of the one before (the detector's work)."""
    return f"Step {k + 1}: ran tool call {k}; total = {1000 + 7 * k}, from {1000 + 7 * (k - 1)}."


def detect_uses_all_pairs(steps: list[str], problem: str = "") -> list[list[int]]:
    """The step-dependency detector as it read before issue 28: every result against every
    later step, every new result against every earlier step (quadratic in the steps). The
    baseline here, and the reference tests/unit/test_step_uses.py holds the linear one to."""
    from labeling.importers import dependencies as d

    labels: dict[str, int] = {}
    results: dict[str, int] = {}
    out: list[list[int]] = []
    for j, text in enumerate(steps):
        uses = d._step_refs(text, j)
        if labels and "(" in text:
            for match in d._PAREN_NUMBER.finditer(text):
                k = labels.get(match.group(1))
                start = match.start()
                if k is not None and k < j and d._REF_WORD.search(text, max(0, start - 24), start):
                    uses.add(k)
        uses.update(k for number, k in results.items() if d._written(number, text))
        out.append(sorted(uses))
        for match in d._TAG.finditer(text):
            labels.setdefault(match.group(1), j)
        for match in d._LINE_LABEL.finditer(text):
            labels.setdefault(match.group(1), j)
        for match in d._RESULT.finditer(text):
            number = d._norm(match.group(1))
            if (
                d._significant(number)
                and number not in results
                and not d._written(number, problem)
                and not any(d._written(number, earlier) for earlier in steps[:j])
            ):
                results[number] = j
    return out


def detector(small: int, large: int, repeat: int) -> None:
    """detect_uses (linear) against the all-pairs reading, on traces of both sizes."""
    from labeling.importers.dependencies import detect_uses

    print(f"\nstep-dependency detector, median of {repeat}")
    print(f"  {'':30} {small:>8,} steps {large:>8,} steps   ratio")
    for name, fn in (("all pairs (before)", detect_uses_all_pairs), ("linear", detect_uses)):
        times = {}
        for steps in (small, large):
            trace = [trace_text(k) for k in range(steps)]
            _, ms = harness.measure(lambda trace=trace, fn=fn: fn(trace, ""), repeat)
            times[steps] = statistics.median(ms)
        print(
            f"  {name:30} {times[small]:11.1f} ms {times[large]:11.1f} ms "
            f"{times[large] / times[small]:6.1f}x"
        )


def server_paths(small: int, large: int, repeat: int, tmp: Path) -> None:
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    user = get_user_model().objects.create_user("bench-server", password=PASSWORD)
    client = APIClient(SERVER_NAME="localhost")  # an ALLOWED_HOSTS name (DEBUG is off)
    client.force_authenticate(user)
    rows: dict[str, dict[int, list[float]]] = {}
    sizes: dict[int, int] = {}
    for steps in (small, large):
        project, imports = new_project(f"server-{steps}", user, [steps] * repeat, tmp, trace_text)
        rows.setdefault("import (one solution)", {})[steps] = imports
        for _ in range(repeat):
            started = time.perf_counter()
            answer = client.post(f"/api/projects/{project.pk}/queue/next/")
            claimed = time.perf_counter()
            task = answer.json()
            sizes[steps] = len(answer.content)
            labels = [{"step_id": s["id"], "rating": 1} for s in task["solution"]["steps"]]
            aid = task["annotation"]["id"]
            before = time.perf_counter()
            saved = client.put(
                f"/api/annotations/{aid}/draft/", {"version": 1, "labels": labels}, format="json"
            )
            drafted = time.perf_counter()
            done = client.post(
                f"/api/annotations/{aid}/submit/", {"version": 2, "labels": labels}, format="json"
            )
            submitted = time.perf_counter()
            assert saved.status_code == 200 and done.status_code == 200, (saved, done)
            rows.setdefault("claim (the page's payload)", {}).setdefault(steps, []).append(
                (claimed - started) * 1000
            )
            rows.setdefault("draft of every step", {}).setdefault(steps, []).append(
                (drafted - before) * 1000
            )
            rows.setdefault("submit", {}).setdefault(steps, []).append((submitted - drafted) * 1000)
    print(f"\nserver, median of {repeat} ({large // small}x the steps: linear ≈ {large // small}x)")
    print(f"  {'':30} {small:>8,} steps {large:>8,} steps   ratio")
    for what, by in rows.items():
        a, b = statistics.median(by[small]), statistics.median(by[large])
        print(f"  {what:30} {a:11.1f} ms {b:11.1f} ms {b / a:6.1f}x")
    print(
        f"  {'payload bytes':30} {sizes[small]:>14,} {sizes[large]:>14,} "
        f"{sizes[large] / sizes[small]:6.1f}x"
    )


# --- the page in Chromium -------------------------------------------------------------------


def collect_static(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "collectstatic", "--noinput", "-v", "0"]
        + ["-i", "admin", "-i", "drf_spectacular_sidecar", "-i", "rest_framework"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def page_loads(base: str, project_id: int, steps: int, repeat: int) -> dict[str, dict]:
    from playwright.sync_api import sync_playwright

    url = f"{base}/projects/{project_id}/label"
    out: dict[str, dict] = {"all": {}, "windowed": {}}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run"]
            + ["--enable-precise-memory-info"],
        )
        signin = browser.new_context()
        page = signin.new_page()
        page.goto(f"{base}/login")
        page.get_by_test_id("login-username").fill("bench-annotator")
        page.get_by_test_id("login-password").fill(PASSWORD)
        page.get_by_test_id("login-submit").click()
        page.wait_for_url(f"{base}/projects")
        cookies = signin.storage_state()
        signin.close()
        for _ in range(repeat):
            for mode in ("all", "windowed"):
                context = browser.new_context(
                    storage_state=cookies, viewport={"width": 1400, "height": 900}
                )
                store = (
                    "localStorage.setItem('steplab.renderAllSteps', '1')"
                    if mode == "all"
                    else "localStorage.removeItem('steplab.renderAllSteps')"
                )
                context.add_init_script(f"try {{ {store}; }} catch (e) {{}}")
                page = context.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                current = page.locator('[data-testid="step-row"][data-current="true"]')
                started = time.perf_counter()
                page.goto(url)
                try:
                    current.wait_for(timeout=300_000)  # every step rendered: slow when busy
                except Exception:
                    page.screenshot(path=str(ROOT / "var" / f"long_solution_bench_{mode}.png"))
                    raise SystemExit(f"{mode}: the page did not show its steps: {errors}") from None
                page.keyboard.press("j")
                page.wait_for_function(
                    "() => document.querySelector('[data-current=\"true\"]')"
                    "?.getAttribute('aria-posinset') === '2'",
                    timeout=300_000,
                )
                interactive = time.perf_counter() - started
                elements = page.evaluate("document.getElementsByTagName('*').length")
                rows = page.evaluate("document.querySelectorAll('[data-testid=step-row]').length")
                heap = page.evaluate("performance.memory ? performance.memory.usedJSHeapSize : 0")
                before = time.perf_counter()
                page.keyboard.press("End")
                page.wait_for_function(
                    "n => document.querySelector('[data-current=\"true\"]')"
                    "?.getAttribute('aria-posinset') === String(n)",
                    arg=steps,
                    timeout=300_000,
                )
                to_end = time.perf_counter() - before
                for key, value in (
                    ("interactive_ms", interactive * 1000),
                    ("end_ms", to_end * 1000),
                    ("elements", elements),
                    ("rows", rows),
                    ("heap_mb", heap / 1e6),
                ):
                    out[mode].setdefault(key, []).append(value)
                page.keyboard.press("Home")
                context.close()
        browser.close()
    return out


def browser_part(steps: int, repeat: int, tmp: Path, env: dict[str, str]) -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("bench-annotator", password=PASSWORD)
    # A solution a load: a closed page's draft need not be the one the next load claims.
    project, _ = new_project("page", user, [steps] * (2 * repeat), tmp)
    collect_static(env)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "annotate.wsgi:application"]
        + ["-b", f"127.0.0.1:{port}", "-w", "2", "--threads", "4", "--timeout", "120"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(f"{base}/login")
        result = page_loads(base, project.pk, steps, repeat)
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"\nlabeling page, {steps:,} steps, Chromium 1400x900, median of {repeat} loads a mode")
    print(f"  {'':42} {'all rendered':>14} {'windowed':>12}  ratio")
    names = {
        "interactive_ms": "navigation until a key is answered (ms)",
        "end_ms": "End until the last step is current (ms)",
        "elements": "DOM elements",
        "rows": "step rows in the DOM",
        "heap_mb": "JS heap (MB)",
    }
    for key, name in names.items():
        a = statistics.median(result["all"][key])
        b = statistics.median(result["windowed"][key])
        print(f"  {name:42} {a:14,.1f} {b:12,.1f} {a / b if b else 0:6.1f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=3000, help="the page's solution")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=5000)
    parser.add_argument("--server-only", action="store_true")
    parser.add_argument("--browser-only", action="store_true", help="only the page in Chromium")
    args = parser.parse_args()
    if not args.server_only and not (ROOT / "frontend" / "dist" / "index.html").exists():
        raise SystemExit("frontend/dist is missing: npm --prefix frontend run build")

    where, cleanup = harness.django_on_throwaway_database("steplab_bench_long")
    try:
        harness.migrate(where)
        print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1 and 5 min)")
        with tempfile.TemporaryDirectory() as scratch:
            tmp = Path(scratch)
            if not args.browser_only:
                detector(args.small, args.large, args.repeat)
                server_paths(args.small, args.large, args.repeat, tmp)
            if not args.server_only:
                env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
                env.update(
                    {
                        "DJANGO_SETTINGS_MODULE": "annotate.settings.local",
                        "DEBUG": "false",
                        "STATIC_ROOT": str(tmp / "static"),
                        "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp / 'broker.sqlite3'}",
                    }
                )
                browser_part(args.steps, args.repeat, tmp, env)
    finally:
        harness.finish(cleanup)
    return 0


if __name__ == "__main__":
    sys.exit(main())
