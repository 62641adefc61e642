"""Which URLs the server may fetch on an importer's behalf, and fetching them safely (SSRF).

An import names image URLs that this server downloads. Without a guard, a URL could make it
read its own private network: Redis on 127.0.0.1:6379, the cloud metadata service at
169.254.169.254, a LAN host, or the same through a DNS name or a redirect. So a URL is fetched
only when:

- its scheme is http or https;
- every address its host resolves to (getaddrinfo, which also reads `0x7f000001`, `2130706433`
  and `127.1`) is global: not loopback, private, link-local, multicast, reserved, unspecified,
  carrier-grade NAT (100.64.0.0/10), documentation or benchmarking, nor an IPv6 form that carries
  such an IPv4 address (IPv4-mapped, IPv4-compatible, 6to4, Teredo, NAT64);
- the connection goes to the address that was checked (the URL is rewritten to the IP, with the
  name kept in the Host header and as the TLS SNI and certificate name), so a DNS answer that
  changes between the check and the connection (rebinding) is never used;
- redirects are followed here, at most MAX_REDIRECTS, and each hop is checked the same way.

`settings.MEDIA_FETCH_ALLOW_PRIVATE` (environment MEDIA_FETCH_ALLOW_PRIVATE) turns the address
check off for self-hosted servers whose image host is on their own network; schemes, pinning and
the redirect limit still apply.
"""

import ipaddress
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx
from django.conf import settings

MAX_REDIRECTS = 5
REDIRECT_STATUSES = {301, 302, 303, 307, 308}
SCHEMES = {"http": 80, "https": 443}

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


class UrlRefused(ValueError):
    """A URL this server will not fetch; the message is a sentence naming the URL and why."""

    def __init__(self, url: object, reason: str) -> None:
        super().__init__(f"{url} {reason}")
        self.url = str(url)
        self.reason = reason


def address_problem(ip: IPAddress) -> str | None:
    """Why `ip` may not be fetched ("a loopback address"), or None when it is a global address."""
    embedded = _embedded_ipv4(ip)
    if embedded is not None:
        inner = address_problem(embedded)
        return f"which carries {embedded}, {inner}" if inner else None
    if ip.is_unspecified:
        return "an unspecified address"
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "a link-local address (cloud metadata services live there)"
    if ip.is_multicast:
        return "a multicast address"
    if ip in _CGNAT:
        return "a carrier-grade NAT (100.64.0.0/10) address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.is_site_local:
        return "a site-local address"
    if ip.is_reserved:
        return "a reserved address"
    if ip.is_private:
        return "a private address"
    if not ip.is_global:
        return "a non-global (special-purpose) address"
    return None


def _embedded_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 form carries (mapped, compatible, 6to4, Teredo, NAT64), if any."""
    if not isinstance(ip, ipaddress.IPv6Address):
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        server, client = ip.teredo
        return client if address_problem(client) else server
    if ip in _NAT64 or (ip in _IPV4_COMPATIBLE and int(ip) > 1):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def resolve(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (the resolver tests replace)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]).split("%", 1)[0] for info in infos))


@dataclass(frozen=True)
class Target:
    """A vetted URL: where to connect (`pinned`, the IP) and what to call it (`url`)."""

    url: httpx.URL
    pinned: httpx.URL
    host_header: str
    sni_hostname: str | None


def vet_url(url: str | httpx.URL, *, allow_private: bool | None = None) -> Target:
    """Check one URL and pin it to an address; raises UrlRefused with the reason."""
    if allow_private is None:
        allow_private = getattr(settings, "MEDIA_FETCH_ALLOW_PRIVATE", False)
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as exc:
        raise UrlRefused(url, f"is not a valid URL ({exc})") from exc
    if parsed.scheme not in SCHEMES:
        raise UrlRefused(url, "is not an http(s) URL; only http and https are fetched")
    host = parsed.raw_host.decode("ascii")
    if not host:
        raise UrlRefused(url, "has no host")
    port = parsed.port or SCHEMES[parsed.scheme]
    try:
        addresses = [ipaddress.ip_address(a) for a in resolve(host, port)]
    except (OSError, UnicodeError, ValueError) as exc:
        raise UrlRefused(url, f"has a host that does not resolve ({exc})") from exc
    if not addresses:
        raise UrlRefused(url, "has a host that resolves to no address")
    literal = _is_ip_literal(host)
    if not allow_private:
        for ip in addresses:
            problem = address_problem(ip)
            if problem:
                verb = "is" if literal and ipaddress.ip_address(host) == ip else "resolves to"
                raise UrlRefused(
                    url,
                    f"{verb} {ip}, {problem}; private addresses are not fetched"
                    " (MEDIA_FETCH_ALLOW_PRIVATE allows them on a self-hosted server)",
                )
    ip = addresses[0]
    return Target(
        url=parsed,
        pinned=parsed.copy_with(host=str(ip), port=port),
        host_header=parsed.netloc.decode("ascii").rsplit("@", 1)[-1],
        sni_hostname=None if literal else host,
    )


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


@contextmanager
def guarded_get(
    url: str, *, timeout: float, allow_private: bool | None = None
) -> Iterator[httpx.Response]:
    """GET `url` as a stream, connecting only to vetted addresses and vetting every redirect.

    Yields the final response (not a redirect). Raises UrlRefused for a refused URL or hop and
    for too many redirects; httpx.HTTPError for network failures.
    """
    current: str | httpx.URL = url  # parsed (and refused if malformed) by vet_url
    with httpx.Client(timeout=timeout, follow_redirects=False) as client:
        for hop in range(MAX_REDIRECTS + 1):
            try:
                target = vet_url(current, allow_private=allow_private)
            except UrlRefused as exc:
                if hop == 0:
                    raise
                raise UrlRefused(url, f"redirects to {exc.url}, which {exc.reason}") from exc
            extensions = {"sni_hostname": target.sni_hostname} if target.sni_hostname else {}
            request = client.build_request(
                "GET",
                target.pinned,
                headers={"Host": target.host_header},
                extensions=extensions,
            )
            response = client.send(request, stream=True)
            try:
                location = response.headers.get("location")
                if response.status_code in REDIRECT_STATUSES and location:
                    try:
                        current = target.url.join(location)
                    except (httpx.InvalidURL, TypeError, ValueError) as exc:
                        raise UrlRefused(url, f"redirects to an invalid URL ({exc})") from exc
                    continue
                yield response
                return
            finally:
                response.close()
    raise UrlRefused(url, f"redirects more than {MAX_REDIRECTS} times")
