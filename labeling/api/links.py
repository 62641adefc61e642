"""Links to this server that leave it (an e-mailed reset link, an invite link to pass on).

With PUBLIC_URL set they are built on it, never on the request's Host header: behind a proxy
the Host can be an internal name, and with a permissive ALLOWED_HOSTS a forged Host would put
the attacker's address in front of a victim's reset token. Without it, the request's own
address (validated by ALLOWED_HOSTS), as before.
"""

from __future__ import annotations

from django.conf import settings


def absolute_link(request, path: str) -> str:
    base = (getattr(settings, "PUBLIC_URL", "") or "").rstrip("/")
    return f"{base}{path}" if base else request.build_absolute_uri(path)
