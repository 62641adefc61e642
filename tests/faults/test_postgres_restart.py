"""Restart PostgreSQL while an annotator works: a live server on a private cluster of its own.

While the database is down a draft save gets a clear, retryable 503 (`database_unavailable`,
what the labeling page shows as "… Retrying…" and keeps in localStorage); after the restart the
retried save succeeds, the autosaved draft is intact, and the submission goes through.
"""

import time

import httpx

from tests.faults.private_stack import seeded_server


def test_draft_survives_a_postgres_restart_and_submit_succeeds_after(tmp_path):
    with seeded_server(tmp_path, threads=2) as stack:
        headers = {"Authorization": f"Token {stack.token}"}
        with httpx.Client(base_url=stack.base, headers=headers, timeout=30) as c:
            task = c.post(f"/api/projects/{stack.project}/queue/next/").raise_for_status()
            annotation = task.json()["annotation"]
            steps = [s["id"] for s in task.json()["solution"]["steps"]]
            url = f"/api/annotations/{annotation['id']}/"
            first = [{"step_id": steps[0], "rating": 1}]
            saved = c.put(url + "draft/", json={"version": annotation["version"], "labels": first})
            version = saved.raise_for_status().json()["version"]

            stack.pg.stop()  # fast shutdown: every server connection is cut
            second = [*first, {"step_id": steps[1], "rating": -1}]
            down = c.put(url + "draft/", json={"version": version, "labels": second})
            assert down.status_code == 503, down.text[:2000]
            assert down.json()["error"]["code"] == "database_unavailable"
            assert down.headers["Retry-After"]

            stack.pg.start()
            # The page retries with backoff; the first try after the restart may still meet a
            # connection the restart broke, and gets the same clear 503.
            deadline = time.monotonic() + 30
            while True:
                retried = c.put(url + "draft/", json={"version": version, "labels": second})
                if retried.status_code != 503 or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            assert retried.status_code == 200, retried.text[:2000]
            version = retried.json()["version"]

            stored = c.get(url).raise_for_status().json()["annotation"]
            got = {lb["step_id"]: lb["rating"] for lb in stored["labels"]}
            assert got == {steps[0]: 1, steps[1]: -1}  # the autosaved draft is all there
            labels = [{"step_id": s, "rating": 1 if i != 1 else -1} for i, s in enumerate(steps)]
            submit = c.post(url + "submit/", json={"version": version, "labels": labels})
            assert submit.status_code == 200, submit.text[:2000]
            assert submit.json()["status"] == "submitted"
