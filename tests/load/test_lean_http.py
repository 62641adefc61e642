"""bench.load.lean_http: the stream bench's keep-alive client against a real local server."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bench.load.lean_http import LeanClient


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    seen: list[tuple[str, dict, int]] = []
    close_after: set[int] = set()

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length)) if length else None
        port = self.client_address[1]
        type(self).seen.append((self.path, {"auth": self.headers["Authorization"]}, port))
        if self.path.endswith("/empty/"):
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            answer = json.dumps({"path": self.path, "body": body}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
        if len(type(self).seen) in type(self).close_after:
            self.close_connection = True  # closes without telling: the next request finds it shut

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server():
    _Handler.seen = []
    _Handler.close_after = set()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_posts_json_keeps_the_connection_and_sends_headers(server):
    with LeanClient(base_url=server, headers={"Authorization": "Token t"}) as client:
        first = client.post("/api/a/", json={"x": [1, 2]})
        second = client.post("/api/b/")
        empty = client.post("/api/empty/")
    assert first.status_code == 200
    assert first.json() == {"path": "/api/a/", "body": {"x": [1, 2]}}
    assert second.json() == {"path": "/api/b/", "body": None}
    assert (empty.status_code, empty.json()) == (204, None)
    ports = {port for _, _, port in _Handler.seen}
    assert len(ports) == 1  # one kept-alive connection
    assert all(headers == {"auth": "Token t"} for _, headers, _ in _Handler.seen)


def test_a_connection_the_server_closed_is_replaced(server):
    _Handler.close_after = {1}
    with LeanClient(base_url=server) as client:
        assert client.post("/one/").status_code == 200
        assert client.post("/two/", json={"k": 1}).json()["body"] == {"k": 1}
    paths = [path for path, _, _ in _Handler.seen]
    assert paths == ["/one/", "/two/"]  # sent once each, on two connections
    assert len({port for _, _, port in _Handler.seen}) == 2


def test_refuses_what_it_does_not_speak():
    with pytest.raises(ValueError, match="plain http"):
        LeanClient(base_url="https://example.org")
