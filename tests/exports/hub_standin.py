"""A local stand-in for the few Hugging Face Hub endpoints steplab uses, so tests never reach
the network: huggingface_hub talks to it through its `endpoint` (HF_ENDPOINT).

It keeps dataset repos in memory: commits (each a full snapshot of the files), branches and
tags, private flags and the token that made them. Files are always uploaded "regular" (inline
in the commit), never through LFS or Xet. Endpoints: repo create, YAML validation, preupload,
commit, tag, repo info / revision, tree listing and file resolve (HEAD and GET).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit


@dataclass
class Repo:
    repo_id: str
    private: bool
    owner_token: str
    commits: dict[str, dict[str, bytes]] = field(default_factory=dict)
    refs: dict[str, str] = field(default_factory=dict)  # branch or tag -> commit oid
    tags: set[str] = field(default_factory=set)

    def resolve(self, revision: str) -> str | None:
        if revision in self.refs:
            return self.refs[revision]
        return revision if revision in self.commits else None


@dataclass
class Hub:
    repos: dict[str, Repo] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    users: dict[str, str] = field(default_factory=dict)  # token -> account name (whoami)
    echo_token_error: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    url: str = ""

    def files(self, repo_id: str, revision: str = "main") -> dict[str, bytes]:
        repo = self.repos[repo_id]
        return repo.commits[repo.resolve(revision)]


ROUTES: list[tuple[str, re.Pattern[str], str]] = [
    ("GET", re.compile(r"^/api/whoami-v2$"), "whoami"),
    ("POST", re.compile(r"^/api/repos/create$"), "create"),
    ("POST", re.compile(r"^/api/validate-yaml$"), "validate_yaml"),
    (
        "POST",
        re.compile(r"^/api/datasets/(?P<repo>[^/]+/[^/]+)/preupload/(?P<rev>[^/]+)$"),
        "preupload",
    ),
    ("POST", re.compile(r"^/api/datasets/(?P<repo>[^/]+/[^/]+)/commit/(?P<rev>[^/]+)$"), "commit"),
    ("POST", re.compile(r"^/api/datasets/(?P<repo>[^/]+/[^/]+)/tag/(?P<rev>[^/]+)$"), "tag"),
    (
        "GET",
        re.compile(r"^/api/datasets/(?P<repo>[^/]+/[^/]+)/tree/(?P<rev>[^/]+)(?:/(?P<path>.*))?$"),
        "tree",
    ),
    ("GET", re.compile(r"^/api/datasets/(?P<repo>[^/]+/[^/]+)/revision/(?P<rev>[^/]+)$"), "info"),
    ("GET", re.compile(r"^/api/datasets/(?P<repo>[^/]+/[^/]+)$"), "info"),
    ("GET", re.compile(r"^/api/datasets/(?P<repo>[^/]+/[^/]+)/refs$"), "refs"),
    (
        "GET",
        re.compile(r"^/datasets/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<path>.+)$"),
        "resolve",
    ),
    (
        "HEAD",
        re.compile(r"^/datasets/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<path>.+)$"),
        "resolve",
    ),
]


def _oid(files: dict[str, bytes], parent: str) -> str:
    digest = hashlib.sha1(parent.encode())
    for path in sorted(files):
        digest.update(path.encode() + b"\0" + hashlib.sha1(files[path]).digest())
    return digest.hexdigest()


class Handler(BaseHTTPRequestHandler):
    hub: Hub

    def log_message(self, *args: Any) -> None:
        pass

    def _token(self) -> str:
        header = self.headers.get("Authorization", "")
        return header[7:] if header.startswith("Bearer ") else ""

    def _send(self, status: int, body: Any = None, headers: dict[str, str] | None = None) -> None:
        data = (
            b""
            if body is None
            else (body if isinstance(body, bytes) else json.dumps(body).encode())
        )
        self.send_response(status)
        self.send_header(
            "Content-Type",
            "application/json" if not isinstance(body, bytes) else "application/octet-stream",
        )
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _error(self, status: int, message: str) -> None:
        self._send(status, {"error": message}, {"X-Error-Message": message})

    def _body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def _dispatch(self) -> None:
        path = unquote(urlsplit(self.path).path)
        with self.hub.lock:
            self.hub.requests.append((self.command, path))
            self.hub.tokens.append(self._token())
        if self.hub.echo_token_error:
            return self._error(400, f"Bad request: the token {self._token()} is malformed")
        for method, pattern, name in ROUTES:
            match = pattern.match(path)
            if method == self.command and match:
                return getattr(self, name)(**{k: v for k, v in match.groupdict().items()})
        self._error(404, f"no route {self.command} {path}")

    do_GET = do_POST = do_HEAD = _dispatch

    def _repo(self, repo: str, *, write: bool = False) -> Repo | None:
        found = self.hub.repos.get(repo)
        token = self._token()
        if found is None or (found.private and token != found.owner_token):
            self._send(404, {"error": "Repository not found"}, {"X-Error-Code": "RepoNotFound"})
            return None
        if write and token != found.owner_token:
            self._error(403, "You don't have the rights to write to this repository")
            return None
        return found

    def create(self) -> None:
        payload = json.loads(self._body())
        token = self._token()
        if not token:
            return self._error(401, "Invalid credentials in Authorization header")
        repo_id = f"{payload.get('organization') or 'user'}/{payload['name']}"
        with self.hub.lock:
            if repo_id in self.hub.repos:
                return self._send(
                    409,
                    {
                        "error": "You already created this dataset repo",
                        "url": f"{self.hub.url}/datasets/{repo_id}",
                    },
                )
            repo = Repo(
                repo_id,
                payload.get("visibility", "public") != "public" or bool(payload.get("private")),
                token,
            )
            empty = _oid({}, "")
            repo.commits[empty] = {}
            repo.refs["main"] = empty
            self.hub.repos[repo_id] = repo
        self._send(200, {"url": f"{self.hub.url}/datasets/{repo_id}", "name": repo_id})

    def whoami(self) -> None:
        name = self.hub.users.get(self._token())
        if name is None:
            return self._error(401, "Invalid credentials in Authorization header")
        self._send(200, {"type": "user", "name": name, "auth": {"type": "access_token"}})

    def validate_yaml(self) -> None:
        self._body()
        self._send(200, {"errors": [], "warnings": []})

    def preupload(self, repo: str, rev: str) -> None:
        if self._repo(repo, write=True) is None:
            return
        payload = json.loads(self._body())
        files = [
            {"path": f["path"], "uploadMode": "regular", "shouldIgnore": False}
            for f in payload["files"]
        ]
        self._send(200, {"files": files, "commitOid": None})

    def commit(self, repo: str, rev: str) -> None:
        found = self._repo(repo, write=True)
        if found is None:
            return
        lines = [json.loads(line) for line in self._body().splitlines() if line.strip()]
        with self.hub.lock:
            parent = found.resolve(rev)
            if parent is None:
                return self._error(404, f"Revision {rev} not found")
            files = dict(found.commits[parent])
            for line in lines:
                value = line["value"]
                if line["key"] == "file":
                    files[value["path"]] = base64.b64decode(value["content"])
                elif line["key"] == "deletedFile":
                    files.pop(value["path"], None)
                elif line["key"] == "lfsFile":
                    return self._error(400, "this stand-in takes regular files only")
            oid = _oid(files, parent)
            found.commits[oid] = files
            found.refs[rev] = oid
        self._send(
            200,
            {
                "commitUrl": f"{self.hub.url}/datasets/{repo}/commit/{oid}",
                "commitOid": oid,
                "pullRequestUrl": None,
            },
        )

    def tag(self, repo: str, rev: str) -> None:
        found = self._repo(repo, write=True)
        if found is None:
            return
        payload = json.loads(self._body())
        with self.hub.lock:
            oid = found.resolve(rev)
            if oid is None:
                return self._error(404, f"Revision {rev} not found")
            if payload["tag"] in found.refs:
                return self._error(409, f"Tag {payload['tag']} already exists")
            found.refs[payload["tag"]] = oid
            found.tags.add(payload["tag"])
        self._send(200, {})

    def refs(self, repo: str) -> None:
        found = self._repo(repo)
        if found is None:
            return

        def ref(name: str) -> dict[str, str]:
            return {
                "name": name,
                "ref": f"refs/{'tags' if name in found.tags else 'heads'}/{name}",
                "targetCommit": found.refs[name],
            }

        self._send(
            200,
            {
                "branches": [ref(n) for n in found.refs if n not in found.tags],
                "tags": [ref(n) for n in sorted(found.tags)],
                "converts": [],
            },
        )

    def info(self, repo: str, rev: str = "main") -> None:
        found = self._repo(repo)
        if found is None:
            return
        oid = found.resolve(unquote(rev))
        if oid is None:
            return self._error(404, f"Revision {rev} not found")
        files = found.commits[oid]
        self._send(
            200,
            {
                "id": repo,
                "_id": repo,
                "sha": oid,
                "private": found.private,
                "tags": [],
                "siblings": [{"rfilename": p, "size": len(b)} for p, b in sorted(files.items())],
                "lastModified": "2026-12-06T00:00:00.000Z",
                "disabled": False,
                "gated": False,
                "downloads": 0,
                "likes": 0,
            },
        )

    def tree(self, repo: str, rev: str, path: str | None = None) -> None:
        found = self._repo(repo)
        if found is None:
            return
        oid = found.resolve(unquote(rev))
        if oid is None:
            return self._error(404, f"Revision {rev} not found")
        prefix = f"{path.rstrip('/')}/" if path else ""
        entries = [
            {"type": "file", "path": p, "size": len(b), "oid": hashlib.sha1(b).hexdigest()}
            for p, b in sorted(found.commits[oid].items())
            if p.startswith(prefix)
        ]
        self._send(200, entries)

    def resolve(self, repo: str, rev: str, path: str) -> None:
        found = self._repo(repo)
        if found is None:
            return
        oid = found.resolve(unquote(rev))
        files = found.commits.get(oid or "", {})
        if path not in files:
            return self._send(404, {"error": "Entry not found"}, {"X-Error-Code": "EntryNotFound"})
        data = files[path]
        self._send(200, data, {"X-Repo-Commit": oid, "ETag": f'"{hashlib.sha1(data).hexdigest()}"'})


@contextmanager
def hub_standin() -> Iterator[Hub]:
    """A running stand-in on 127.0.0.1; `hub.url` is its endpoint."""
    hub = Hub()
    handler = type("BoundHandler", (Handler,), {"hub": hub})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hub
    finally:
        server.shutdown()
        server.server_close()
