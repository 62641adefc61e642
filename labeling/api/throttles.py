"""Sign-in throttles: per client IP and per username, counted in the default cache.

The client IP is REMOTE_ADDR unless NUM_PROXIES (environment, default 0) says how many proxies
of ours stand in front: only then is X-Forwarded-For read, and only its last NUM_PROXIES hops
(DRF's get_ident), so a client cannot pick its own address by sending the header.

Both apply to the password endpoints (session login and the token exchange). The rates are
`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["login_ip" / "login_user"]`, read on each request so
tests can override them.

`DraftThrottle` bounds one user's draft saves (rate "draft", DRAFT_RATE, 20/s by default): the
labeling page saves at most about twice a second (a 600 ms debounce, one save in flight), so
only a client saving in a loop meets it; it gets a 429 with Retry-After and backs off.
"""

import hashlib
import unicodedata

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


class _LoginThrottle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def __init__(self) -> None:
        # SimpleRateThrottle reads the rate in __init__ from a class attribute fixed at import.
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)


class LoginIpThrottle(_LoginThrottle):
    scope = "login_ip"

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginUsernameThrottle(_LoginThrottle):
    scope = "login_user"

    def get_cache_key(self, request, view) -> str | None:
        username = request.data.get("username") if hasattr(request.data, "get") else None
        if not isinstance(username, str) or not username.strip():
            return None
        # One account however it is spelled (case, Unicode form), hashed: a cache key holds no
        # client text (memcached refuses spaces and control characters).
        name = unicodedata.normalize("NFKC", username.strip()).casefold()
        # surrogatepass: a lone surrogate (JSON may escape one: "\\ud800") still hashes; the
        # serializer refuses it with a 400 after the throttle.
        ident = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": ident}


class _PerUserThrottle(_LoginThrottle):
    """Requests per signed-in user, at the rate of the subclass's scope."""

    def get_cache_key(self, request, view) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None  # refused by the permission check anyway
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class DraftThrottle(_PerUserThrottle):
    """Draft saves per signed-in user (all their annotations together)."""

    scope = "draft"


class PredictionsThrottle(_PerUserThrottle):
    """Prediction uploads per signed-in user (rate "predictions", PREDICTIONS_RATE)."""

    scope = "predictions"


class HubTokenThrottle(_PerUserThrottle):
    """Hub token saves per signed-in user (rate "hub_token", HUB_TOKEN_RATE): each one may ask
    the Hub's whoami from the web process."""

    scope = "hub_token"


class PasswordIssueThrottle(_PerUserThrottle):
    """New temporary passwords issued per signed-in admin (rate "password_issue",
    PASSWORD_ISSUE_RATE, 10/min by default): a stolen admin session cannot reset accounts in a
    loop."""

    scope = "password_issue"
