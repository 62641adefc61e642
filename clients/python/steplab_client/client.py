"""The common path in a few calls: import a file, upload predictions, run the machine
sources, export, download. Everything else is in `steplab_client.generated`, one function per
endpoint of the OpenAPI schema.

Reads go through the generated functions (their answers are typed models); the writes here send
JSON or multipart themselves, since a generated create function sends its body in every content
type the schema allows at once.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import httpx

from .generated.api.autolabel_runs import autolabel_runs_retrieve
from .generated.api.exports import exports_retrieve
from .generated.api.imports import imports_retrieve
from .generated.client import AuthenticatedClient

FINISHED = ("done", "failed", "cancelled")
Progress = Callable[[dict[str, Any]], None]


class StepLabError(Exception):
    """An answer that is not a success: the HTTP status and the API's one error shape."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details or {}


class JobFailed(StepLabError):
    """A job (import, run, export) that ended failed or cancelled."""


class Client:
    """`Client(url, token)`: `token` is an API token (user menu → API tokens, or
    `POST /api/auth/token/`)."""

    def __init__(
        self, url: str, token: str, *, timeout: float = 60.0, poll_interval: float = 1.0
    ) -> None:
        self.api = AuthenticatedClient(
            base_url=url.rstrip("/"), token=token, prefix="Token", timeout=httpx.Timeout(timeout)
        )
        self.poll_interval = poll_interval

    @classmethod
    def login(cls, url: str, username: str, password: str, **kwargs: Any) -> Client:
        """A client with a new token made from a username and password (30 days)."""
        answer = httpx.post(
            f"{url.rstrip('/')}/api/auth/token/",
            json={"username": username, "password": password, "name": "steplab_client"},
            timeout=kwargs.get("timeout", 60.0),
        )
        _raise_for(answer)
        return cls(url, answer.json()["token"], **kwargs)

    @property
    def http(self) -> httpx.Client:
        """The authenticated httpx client, for endpoints the layer does not wrap."""
        return self.api.get_httpx_client()

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Projects

    def project_id(self, name: str) -> int:
        """The id of the project named `name` among yours."""
        answer = self.http.get("/api/projects/", params={"limit": 200})
        _raise_for(answer)
        for project in answer.json()["results"]:
            if project["name"] == name:
                return project["id"]
        raise StepLabError(404, "not_found", f"No project named {name!r} among yours.")

    def create_project(self, name: str, **settings: Any) -> int:
        """Make a project (`settings`: description, overlap, guidelines, … as in the API)."""
        answer = self.http.post("/api/projects/", json={"name": name, **settings})
        _raise_for(answer)
        return answer.json()["id"]

    # Imports

    def import_file(
        self,
        project_id: int,
        path: str | Path,
        *,
        format: str = "auto",
        labels_as: str = "suggestions",
        step_split: str = "",
        step_split_regex: str = "",
        step_split_tag: str = "",
        wait: bool = True,
        timeout: float | None = None,
        on_progress: Progress | None = None,
    ) -> dict[str, Any]:
        """Upload an import file; with `wait`, return the finished job (raises JobFailed
        when the file was refused: its error names the line and field). `step_split` (with
        its regex or tag): how this import cuts one-string solutions into steps, instead of
        the project's rule."""
        path = Path(path)
        rule = {
            key: value
            for key, value in (
                ("step_split", step_split),
                ("step_split_regex", step_split_regex),
                ("step_split_tag", step_split_tag),
            )
            if value
        }
        with path.open("rb") as f:
            answer = self.http.post(
                f"/api/projects/{project_id}/imports/",
                files={"file": (path.name, f)},
                data={"format": format, "labels_as": labels_as, **rule},
                headers={"Idempotency-Key": str(uuid.uuid4())},
            )
        _raise_for(answer)
        job = answer.json()
        if not wait:
            return job
        return self._wait(
            lambda: imports_retrieve.sync_detailed(job["id"], client=self.api),
            timeout=timeout,
            on_progress=on_progress,
            what=f"import {job['id']}",
        )

    # Predictions

    def upload_predictions(
        self,
        project_id: int,
        rows: str | Path | Iterable[Mapping[str, Any]],
        *,
        name: str | None = None,
        version: str | None = None,
    ) -> dict[str, Any]:
        """Upload a model's step labels for solutions already in the project
        (docs/predictions.md): a JSON Lines (or .gz) or JSON file's path, or dicts
        `{"id": <solution external id>, "labels": [...], "scores": [...]}`. `name` and
        `version` name the model for rows that do not. Atomic: a bad row raises StepLabError
        naming its line and field, and nothing is stored; the same upload again updates in place.
        """
        content_type = "application/x-ndjson"
        if isinstance(rows, str | Path):
            path = Path(rows)
            body = path.read_bytes()
            if path.suffix == ".json":
                content_type = "application/json"
        else:
            body = b"".join(_json_line(row) for row in rows)
        params = {k: v for k, v in (("name", name), ("version", version)) if v is not None}
        answer = self.http.post(
            f"/api/projects/{project_id}/predictions/",
            content=body,
            params=params,
            headers={"Content-Type": content_type},
        )
        _raise_for(answer)
        return answer.json()

    # Auto-label runs

    def start_run(
        self,
        project_id: int,
        sources: list[str],
        *,
        params: Mapping[str, Any] | None = None,
        filter: Mapping[str, Any] | None = None,
        wait: bool = True,
        timeout: float | None = None,
        on_progress: Progress | None = None,
    ) -> dict[str, Any]:
        """Start an auto-label run of `sources`; with `wait`, return it finished, calling
        `on_progress(run)` at each poll."""
        answer = self.http.post(
            f"/api/projects/{project_id}/autolabel-runs/",
            json={"sources": sources, "params": dict(params or {}), "filter": dict(filter or {})},
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
        _raise_for(answer)
        run = answer.json()
        if not wait:
            return run
        return self._wait(
            lambda: autolabel_runs_retrieve.sync_detailed(run["id"], client=self.api),
            timeout=timeout,
            on_progress=on_progress,
            what=f"auto-label run {run['id']}",
        )

    # Exports

    def create_export(
        self,
        project_id: int,
        format: str = "trl",
        *,
        file_type: str = "jsonl",
        wait: bool = True,
        timeout: float | None = None,
        on_progress: Progress | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """Create an export (`options`: filters, label_policy, split_policy as in the API);
        with `wait`, return it done."""
        answer = self.http.post(
            f"/api/projects/{project_id}/exports/",
            json={"format": format, "file_type": file_type, **options},
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
        _raise_for(answer)
        export = answer.json()
        if not wait:
            return export
        return self.wait_export(export["id"], timeout=timeout, on_progress=on_progress)

    def wait_export(
        self, export_id: int, *, timeout: float | None = None, on_progress: Progress | None = None
    ) -> dict[str, Any]:
        return self._wait(
            lambda: exports_retrieve.sync_detailed(export_id, client=self.api),
            timeout=timeout,
            on_progress=on_progress,
            what=f"export {export_id}",
        )

    def download_export(self, export_id: int, path: str | Path) -> Path:
        """Stream a done export to `path` (a folder gets the export's own file name); the
        file's sha256 is checked against the server's."""
        path = Path(path)
        with self.http.stream("GET", f"/api/exports/{export_id}/download/") as answer:
            if answer.is_error:
                answer.read()
                _raise_for(answer)
            if path.is_dir():
                path = path / _file_name(answer, export_id)
            sha = hashlib.sha256()
            part = path.with_name(path.name + ".part")
            with part.open("wb") as f:
                for chunk in answer.iter_bytes(1 << 20):
                    f.write(chunk)
                    sha.update(chunk)
            expected = answer.headers.get("X-Checksum-SHA256")
        if expected and sha.hexdigest() != expected:
            part.unlink()
            raise StepLabError(502, "checksum_mismatch", f"export {export_id}: sha256 differs")
        part.replace(path)
        return path

    def load_export(self, export_id: int, folder: str | Path) -> Any:
        """Download an export into `folder` and load it with `datasets` (one split)."""
        import datasets  # optional: pip install 'steplab-client[datasets]'

        path = self.download_export(export_id, folder)
        builder = "parquet" if path.suffix == ".parquet" else "json"
        return datasets.load_dataset(builder, data_files=str(path), split="train")

    # Waiting

    def _wait(
        self,
        retrieve: Callable[[], Any],
        *,
        timeout: float | None,
        on_progress: Progress | None,
        what: str,
    ) -> dict[str, Any]:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            answer = retrieve()
            if answer.status_code >= 400:
                _raise_for(httpx.Response(answer.status_code, content=answer.content))
            job = answer.parsed.to_dict()
            if on_progress is not None:
                on_progress(job)
            if job["status"] in FINISHED:
                if job["status"] != "done":
                    message = job.get("error") or job.get("errors") or job["status"]
                    raise JobFailed(200, job["status"], f"{what}: {message}", job)
                return job
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"{what} is still {job['status']} after {timeout} s")
            time.sleep(self.poll_interval)


def _raise_for(answer: httpx.Response) -> None:
    if answer.is_success:
        return
    try:
        error = answer.json()["error"]
        raise StepLabError(
            answer.status_code, error["code"], error["message"], error.get("details")
        )
    except (ValueError, KeyError, TypeError):
        raise StepLabError(answer.status_code, "http_error", answer.text[:500]) from None


def _json_line(row: Mapping[str, Any]) -> bytes:
    import json

    return json.dumps(row, ensure_ascii=False).encode() + b"\n"


def _file_name(answer: httpx.Response, export_id: int) -> str:
    disposition = answer.headers.get("Content-Disposition", "")
    if "filename=" in disposition:
        name = disposition.split("filename=", 1)[1].strip().strip('"')
        if name and "/" not in name and "\\" not in name and name not in (".", ".."):
            return name
    return f"export-{export_id}"
