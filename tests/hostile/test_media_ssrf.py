"""Image URLs in an import cannot make the server fetch private addresses (SSRF).

The hostile URLs point at a real image server on 127.0.0.1 wherever they can, so without the
guard they would import. A "public" name (images.example.test) needs a public address: the
`internet` fixture gives the guard's resolver a small DNS table and routes connections to the
fake public address 93.184.216.34 to the local server, recording every address connected to;
so the tests see which address the download really used, and redirects from a public host to
a private one are checked hop by hop.
"""

import ipaddress
import json
import socket
import ssl
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.files.storage import default_storage

from labeling.importers import ImportFileError
from labeling.models import Annotation, Problem, Solution, Step, StepLabel
from labeling.services.imports import import_file
from labeling.services.media import url_guard
from labeling.services.media.url_guard import UrlRefused, address_problem, vet_url
from tests.domains.test_media import png
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

PUBLIC = "93.184.216.34"
IMAGE = png(rgb=(20, 160, 40))


@pytest.fixture(autouse=True)
def media_settings(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    settings.MEDIA_FETCH_ALLOW_PRIVATE = False  # the default, stated: these tests are about it
    settings.MEDIA_FETCH_TIMEOUT_S = 2.0  # an unguarded fetch of 10.0.0.5 fails fast


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server's name
        self.server.seen.append((self.path, self.headers.get("Host")))
        status, headers, body = self.server.routes.get(self.path, (404, {}, b"no"))
        self.send_response(status)
        for key, value in {"Content-Type": "image/png", **headers}.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.routes: dict[str, tuple[int, dict, bytes]] = {"/chart.png": (200, {}, IMAGE)}
        self.seen: list[tuple[str, str]] = []
        if tls is not None:
            self.socket = tls.wrap_socket(self.socket, server_side=True)
        self.port = self.server_address[1]
        threading.Thread(target=self.serve_forever, daemon=True).start()


@pytest.fixture
def web():
    server = _Server()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def internet(monkeypatch):
    """DNS names the guard resolves, and a public address that is really the local server."""
    dns: dict[str, list[str]] = {
        "images.example.test": [PUBLIC],
        "other.example.test": [PUBLIC],
        "intranet.example.test": ["10.0.0.5"],
        "mixed.example.test": [PUBLIC, "127.0.0.1"],
    }
    real_resolve = url_guard.resolve
    lookups: list[str] = []

    def resolve(host: str, port: int) -> list[str]:
        lookups.append(host)
        answer = dns.get(host)
        if callable(answer):
            return answer()
        return answer if answer is not None else real_resolve(host, port)

    connected: list[str] = []
    real_connect = socket.create_connection

    def create_connection(address, *args, **kwargs):
        connected.append(address[0])
        if address[0] == PUBLIC:
            address = ("127.0.0.1", address[1])
        return real_connect(address, *args, **kwargs)

    monkeypatch.setattr(url_guard, "resolve", resolve)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    return {"dns": dns, "lookups": lookups, "connected": connected}


def _counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in (Problem, Solution, Step, Annotation, StepLabel)}


def _import(tmp_path, project, urls: list[str]) -> None:
    """A two-line import: a plain row, then a row whose second step has the image URLs."""
    rows = [
        {"problem": "plain", "steps": ["a", "b"], "labels": [1, 1]},
        {"problem": "p", "steps": ["a", {"text": "b", "images": urls}], "labels": [1, -1]},
    ]
    path = tmp_path / "mm.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    import_file(project=project, path=path, labels_as="annotations")


def _refused(tmp_path, urls: list[str]) -> ImportFileError:
    """Import `urls` into a project that already has rows; nothing may change."""
    project = ProjectFactory(domain="multimodal")
    _import(tmp_path, project, [])  # rows that were there before
    before = _counts()
    with pytest.raises(ImportFileError) as exc:
        _import(tmp_path, project, urls)
    assert _counts() == before
    assert (exc.value.line, exc.value.field) == (2, "steps[1].images[0]")
    try:
        _, files = default_storage.listdir(f"media/{project.pk}")
    except FileNotFoundError:
        files = []
    assert files == []
    return exc.value


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://127.0.0.1:{port}/chart.png", "is 127.0.0.1, a loopback address"),
        ("http://localhost:{port}/chart.png", "resolves to 127.0.0.1, a loopback address"),
        ("http://127.1:{port}/chart.png", "resolves to 127.0.0.1, a loopback address"),
        ("http://0x7f000001:{port}/chart.png", "resolves to 127.0.0.1, a loopback address"),
        ("http://2130706433:{port}/chart.png", "resolves to 127.0.0.1, a loopback address"),
        ("http://017700000001:{port}/chart.png", "resolves to 127.0.0.1, a loopback address"),
        ("http://0.0.0.0:{port}/chart.png", "is 0.0.0.0, an unspecified address"),
        ("http://[::1]:{port}/chart.png", "is ::1, a loopback address"),
        ("http://[::ffff:127.0.0.1]:{port}/chart.png", "is ::ffff:7f00:1, which carries 127.0.0.1"),
        ("http://169.254.169.254/latest/meta-data/", "is 169.254.169.254, a link-local address"),
        ("http://10.0.0.5/x.png", "is 10.0.0.5, a private address"),
        ("http://100.64.0.1/x.png", "is 100.64.0.1, a carrier-grade NAT (100.64.0.0/10)"),
        ("http://intranet.example.test/x.png", "resolves to 10.0.0.5, a private address"),
        ("http://mixed.example.test:{port}/chart.png", "resolves to 127.0.0.1, a loopback"),
    ],
)
def test_private_addresses_are_refused_and_nothing_is_imported(
    tmp_path, web, internet, url, reason
):
    url = url.format(port=web.port)
    error = _refused(tmp_path, [url])
    assert error.message.startswith(f"{url} {reason}")
    assert "private addresses are not fetched" in error.message
    assert "MEDIA_FETCH_ALLOW_PRIVATE" in error.message
    assert web.seen == []
    assert internet["connected"] == []


def test_a_public_name_is_fetched_from_the_address_that_was_checked(tmp_path, web, internet):
    project = ProjectFactory(domain="multimodal")
    url = f"http://images.example.test:{web.port}/chart.png"
    _import(tmp_path, project, [url])
    [ref] = Step.objects.get(solution__problem__text="p", index=1).metadata["images"]
    assert ref["source_url"] == url
    with default_storage.open(f"media/{project.pk}/{ref['media']}", "rb") as f:
        assert f.read() == IMAGE
    assert internet["connected"] == [PUBLIC]  # the vetted address, not a second lookup
    assert web.seen == [("/chart.png", f"images.example.test:{web.port}")]  # the name as Host


def test_a_name_that_rebinds_after_the_check_is_not_looked_up_again(tmp_path, web, internet):
    answers = iter([[PUBLIC], ["127.0.0.1"]])
    internet["dns"]["rebind.example.test"] = lambda: next(answers)
    project = ProjectFactory(domain="multimodal")
    _import(tmp_path, project, [f"http://rebind.example.test:{web.port}/chart.png"])
    assert internet["lookups"].count("rebind.example.test") == 1
    assert internet["connected"] == [PUBLIC]


@pytest.mark.parametrize(
    ("location", "reason"),
    [
        ("http://127.0.0.1:{port}/chart.png", "is 127.0.0.1, a loopback address"),
        ("http://localhost:{port}/chart.png", "resolves to 127.0.0.1, a loopback address"),
        ("http://[::1]:{port}/chart.png", "is ::1, a loopback address"),
        ("http://169.254.169.254/latest/meta-data/", "is 169.254.169.254, a link-local"),
        ("http://intranet.example.test/chart.png", "resolves to 10.0.0.5, a private address"),
        ("file:///etc/passwd", "is not an http(s) URL"),
    ],
)
def test_a_redirect_to_a_private_address_is_refused(tmp_path, web, internet, location, reason):
    location = location.format(port=web.port)
    web.routes["/hop"] = (302, {"Location": location}, b"")
    url = f"http://images.example.test:{web.port}/hop"
    error = _refused(tmp_path, [url])
    assert error.message.startswith(f"{url} redirects to ")
    assert f"{location.split('//')[-1]}, which {reason}" in error.message
    assert [path for path, _ in web.seen] == ["/hop"]  # the private target was never asked
    assert internet["connected"] == [PUBLIC]


def test_public_redirects_are_followed_up_to_five(tmp_path, web, internet):
    for i in range(6):
        web.routes[f"/r{i}"] = (301 if i % 2 else 307, {"Location": f"/r{i + 1}"}, b"")
    web.routes["/r6"] = (200, {}, IMAGE)
    web.routes["/far"] = (302, {"Location": f"http://other.example.test:{web.port}/r2"}, b"")
    project = ProjectFactory(domain="multimodal")
    _import(tmp_path, project, [f"http://images.example.test:{web.port}/far"])  # 6 requests
    assert web.seen[-1] == ("/r6", f"other.example.test:{web.port}")
    web.seen.clear()
    url = f"http://images.example.test:{web.port}/r0"
    error = _refused(tmp_path, [url])
    assert error.message == f"{url} redirects more than 5 times"
    assert len(web.seen) == 6


def test_opting_in_fetches_from_the_private_network(tmp_path, web, settings):
    settings.MEDIA_FETCH_ALLOW_PRIVATE = True
    _import(
        tmp_path, ProjectFactory(domain="multimodal"), [f"http://127.0.0.1:{web.port}/chart.png"]
    )
    assert web.seen == [("/chart.png", f"127.0.0.1:{web.port}")]
    with pytest.raises(UrlRefused, match="is not an http"):
        vet_url("file:///etc/passwd")  # the scheme is still checked


@pytest.fixture
def tls_web(tmp_path, monkeypatch):
    """An HTTPS server whose certificate names images.example.test, trusted via SSL_CERT_FILE."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
        + ["-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1"]
        + ["-subj", "/CN=images.example.test", "-addext", "subjectAltName=DNS:images.example.test"],
        check=True,
        capture_output=True,
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    names: list[str | None] = []
    context.sni_callback = lambda sock, name, ctx: names.append(name)
    server = _Server(tls=context)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    yield server, names
    server.shutdown()
    server.server_close()


def test_https_to_the_pinned_address_sends_the_name_and_verifies_its_certificate(
    tmp_path, tls_web, internet
):
    server, names = tls_web
    project = ProjectFactory(domain="multimodal")
    _import(tmp_path, project, [f"https://images.example.test:{server.port}/chart.png"])
    assert names == ["images.example.test"]  # SNI is the name, though the socket went to an IP
    assert internet["connected"] == [PUBLIC]
    assert server.seen == [("/chart.png", f"images.example.test:{server.port}")]
    # The certificate is checked against the name: another name on the same address fails.
    error = _refused(tmp_path, [f"https://other.example.test:{server.port}/chart.png"])
    assert "cannot download" in error.message and "certificate" in error.message.lower()


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("8.8.8.8", None),
        ("93.184.216.34", None),
        ("2606:4700:4700::1111", None),
        ("::ffff:8.8.8.8", None),
        ("2002:808:808::1", None),  # 6to4 of a public address
        ("127.0.0.1", "a loopback address"),
        ("127.255.255.254", "a loopback address"),
        ("10.1.2.3", "a private address"),
        ("172.16.0.1", "a private address"),
        ("192.168.1.1", "a private address"),
        ("169.254.169.254", "a link-local address"),
        ("100.64.0.1", "a carrier-grade NAT"),
        ("100.127.255.255", "a carrier-grade NAT"),
        ("0.0.0.0", "an unspecified address"),
        ("224.0.0.1", "a multicast address"),
        ("240.0.0.1", "a reserved address"),
        ("255.255.255.255", "a reserved address"),
        ("192.0.2.1", "a private address"),  # documentation
        ("198.18.0.1", "a private address"),  # benchmarking
        ("::1", "a loopback address"),
        ("::", "an unspecified address"),
        ("fe80::1", "a link-local address"),
        ("fc00::1", "a private address"),
        ("fd00:ec2::254", "a private address"),  # AWS's IPv6 metadata address
        ("fec0::1", "a site-local address"),
        ("ff02::1", "a multicast address"),
        ("2001:db8::1", "a private address"),
        ("::ffff:127.0.0.1", "which carries 127.0.0.1, a loopback address"),
        ("::ffff:10.0.0.1", "which carries 10.0.0.1, a private address"),
        ("::ffff:169.254.169.254", "which carries 169.254.169.254, a link-local address"),
        ("::127.0.0.1", "which carries 127.0.0.1, a loopback address"),  # IPv4-compatible
        ("2002:7f00:1::", "which carries 127.0.0.1, a loopback address"),  # 6to4
        ("2002:a9fe:a9fe::", "which carries 169.254.169.254, a link-local address"),
        ("64:ff9b::a00:5", "which carries 10.0.0.5, a private address"),  # NAT64
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "which carries 127.0.0.1"),  # Teredo
    ],
)
def test_address_classifier(address, reason):
    problem = address_problem(ipaddress.ip_address(address))
    if reason is None:
        assert problem is None
    else:
        assert problem is not None and problem.startswith(reason)


@pytest.mark.parametrize(
    "host",
    ["0x7f000001", "2130706433", "017700000001", "127.1", "localhost", "[::1]"],
)
def test_other_spellings_of_loopback_are_resolved_before_they_are_judged(host):
    with pytest.raises(UrlRefused, match="a loopback address"):
        vet_url(f"http://{host}/x.png")


@pytest.mark.parametrize(
    "url", ["ftp://example.com/x.png", "file:///etc/passwd", "gopher://example.com/", "http:///x"]
)
def test_only_http_urls_with_a_host_are_fetched(url):
    with pytest.raises(UrlRefused, match="not an http|no host"):
        vet_url(url)


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://0177.0.0.1/x.png", "is not a valid URL"),
        ("http://256.1.1.1/x.png", "is not a valid URL"),
        ("http://[::1/x.png", "is not a valid URL"),
        ("http://" + "a" * 70 + ".example/x.png", "has a host that does not resolve"),
    ],
)
def test_a_malformed_url_names_its_line_and_field(tmp_path, internet, url, reason):
    """Issue 24: `http://0177.0.0.1/` failed the import with "internal error" and no line."""
    error = _refused(tmp_path, [url])
    assert error.message.startswith(f"{url} {reason}")
