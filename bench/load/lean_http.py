"""A lean keep-alive HTTP/1.1 JSON client for the load generators (stdlib http.client).

The stream bench's clients share the 2 cores with the server and PostgreSQL, so what a request
costs the client is taken from the server: httpx spent 4-5 ms of CPU per claim + submit cycle
here, this about a quarter of that (bench/stream_bench.py prints the clients' CPU per cycle).
Same calls as the subset of httpx.Client the loops use: `post(path, json=...)` answering an
object with `status_code` and `json()`. One connection per client, as httpx's keeps; when the
server has closed an idle connection, the request is sent again on a new one (the loops' writes
carry a request_id and a claim serves the user's own draft first, so a resend is safe).
"""

from __future__ import annotations

import http.client
import json as jsonlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


@dataclass
class LeanResponse:
    status_code: int
    content: bytes

    def json(self) -> Any:
        return jsonlib.loads(self.content) if self.content else None


class LeanClient:
    def __init__(
        self, *, base_url: str, headers: dict[str, str] | None = None, timeout: float = 120
    ) -> None:
        parts = urlsplit(base_url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"LeanClient speaks plain http to a host: {base_url!r}")
        self._host, self._port = parts.hostname, parts.port or 80
        self._prefix = parts.path.rstrip("/")
        self._timeout = timeout
        self._headers = {"Accept": "application/json", **(headers or {})}
        self._conn: http.client.HTTPConnection | None = None

    def __enter__(self) -> LeanClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def post(self, path: str, json: Any = None) -> LeanResponse:
        body = b"" if json is None else jsonlib.dumps(json).encode()
        headers = dict(self._headers)
        if json is not None:
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            if self._conn is None:
                self._conn = http.client.HTTPConnection(
                    self._host, self._port, timeout=self._timeout
                )
            try:
                self._conn.request("POST", self._prefix + path, body=body, headers=headers)
                response = self._conn.getresponse()
                content = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()  # the server closed the kept-alive connection: a new one
                if attempt == 2:
                    raise
                continue
            if response.will_close:
                self.close()
            return LeanResponse(status_code=response.status, content=content)
        raise AssertionError("unreachable")
