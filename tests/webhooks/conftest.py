"""A real HTTP receiver on 127.0.0.1 (a thread) that verifies each webhook's signature."""

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from standardwebhooks import Webhook

from labeling.models import DeliveryStatus, WebhookDelivery
from labeling.services.webhooks.delivery import webhook_delivery_attempt
from labeling.services.webhooks.endpoints import webhook_endpoint_create
from labeling.services.webhooks.events import EVENTS


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    verified: dict | None  # the payload Webhook.verify returned; None when it refused


@dataclass
class Receiver:
    url: str
    secret: str = ""
    # Status codes to answer, in order; the last one repeats.
    answers: list[int] = field(default_factory=lambda: [200])
    extra_headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0  # wait this long before answering
    received: list[Received] = field(default_factory=list)

    def answer(self) -> int:
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]

    def verified(self) -> list[dict]:
        assert all(r.verified is not None for r in self.received), "a signature did not verify"
        return [r.verified for r in self.received]


@contextmanager
def running_receiver() -> Iterator[Receiver]:
    """A receiver listening on 127.0.0.1 (a free port) until the block ends."""
    state = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                verified = Webhook(state.secret).verify(body, headers)
            except Exception:
                verified = None
            state.received.append(Received(headers, body, verified))
            time.sleep(state.delay_s)
            code = state.answer()
            self.send_response(code)
            for name, value in state.extra_headers.items():
                self.send_header(name, value)
            payload = b"" if code < 300 else json.dumps({"why": f"answered {code}"}).encode()
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hooks"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with running_receiver() as state:
        yield state


@pytest.fixture
def private_ok(settings):
    """Tests send to 127.0.0.1, as a self-hoster would with WEBHOOK_ALLOW_PRIVATE."""
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.WEBHOOK_RETRY_BASE_S = 0.0
    settings.WEBHOOK_TIMEOUT_S = 5.0
    settings.PUBLIC_URL = "https://steplab.example.org"


@pytest.fixture
def subscribe(private_ok, receiver):
    """An endpoint of `project` at the receiver, for `events` (default: all)."""

    def make(project, events=None, **fields):
        made = webhook_endpoint_create(
            project=project, url=receiver.url, events=list(events or EVENTS), **fields
        )
        receiver.secret = made.secret
        project.refresh_from_db()
        return made.endpoint

    return make


def deliver_pending(rounds: int = 10) -> list[WebhookDelivery]:
    """Run the due attempts of every pending delivery (what the worker does), until none is
    left or `rounds` passed; returns all deliveries."""
    for _ in range(rounds):
        pending = list(
            WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING).values_list(
                "pk", flat=True
            )
        )
        if not pending:
            break
        for pk in pending:
            webhook_delivery_attempt(delivery_id=pk)
    return list(WebhookDelivery.objects.order_by("pk"))
