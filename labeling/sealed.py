"""Secrets stored encrypted at rest (a user's Hugging Face token), with a key derived from
SECRET_KEY: `seal` then `unseal`.

`cryptography` is not a dependency of steplab, so this is encrypt-then-MAC from the standard
library's HMAC-SHA256 alone: two keys derived from SECRET_KEY (one to encrypt, one to
authenticate), a random 16-byte nonce per secret, a keystream of HMAC(k_enc, nonce ‖ counter)
blocks XORed with the text (HMAC as a PRF in counter mode), and a tag HMAC(k_mac, version ‖
nonce ‖ ciphertext) checked in constant time before anything is decrypted. A sealed value is
`v1:` and the URL-safe base64 of nonce ‖ ciphertext ‖ tag.

SECRET_KEY_FALLBACKS are tried when the current key's tag does not match, so rotating
SECRET_KEY the way Django documents keeps saved secrets readable; a value sealed under a key
that is gone raises SealBroken (its owner saves the secret again).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from django.conf import settings

VERSION = b"v1"
NONCE_BYTES = 16
TAG_BYTES = 32
BLOCK = hashlib.sha256().digest_size
PURPOSE = b"steplab sealed secret"


class SealBroken(ValueError):
    """The value was not sealed under SECRET_KEY or any of its fallbacks, or was altered."""


def _keys(secret_key: str) -> tuple[bytes, bytes]:
    root = hmac.new(secret_key.encode(), PURPOSE + b" " + VERSION, hashlib.sha256).digest()
    encrypt = hmac.new(root, b"encrypt", hashlib.sha256).digest()
    mac = hmac.new(root, b"authenticate", hashlib.sha256).digest()
    return encrypt, mac


def _keystream_xor(key: bytes, nonce: bytes, data: bytes) -> bytes:
    out = bytearray(len(data))
    for start in range(0, len(data), BLOCK):
        counter = (start // BLOCK).to_bytes(8, "big")
        block = hmac.new(key, nonce + counter, hashlib.sha256).digest()
        chunk = data[start : start + BLOCK]
        out[start : start + len(chunk)] = bytes(a ^ b for a, b in zip(chunk, block, strict=False))
    return bytes(out)


def _tag(key: bytes, nonce: bytes, ciphertext: bytes) -> bytes:
    return hmac.new(key, VERSION + nonce + ciphertext, hashlib.sha256).digest()


def seal(text: str) -> str:
    """`text` encrypted and authenticated under SECRET_KEY."""
    encrypt, mac = _keys(settings.SECRET_KEY)
    nonce = secrets.token_bytes(NONCE_BYTES)
    ciphertext = _keystream_xor(encrypt, nonce, text.encode())
    blob = nonce + ciphertext + _tag(mac, nonce, ciphertext)
    return VERSION.decode() + ":" + base64.urlsafe_b64encode(blob).decode("ascii")


def unseal(sealed: str) -> str:
    """The text `seal` was given; SealBroken when no configured key authenticates it."""
    version, _, body = sealed.partition(":")
    try:
        blob = base64.urlsafe_b64decode(body.encode("ascii"))
    except (ValueError, UnicodeEncodeError):
        raise SealBroken("not a sealed value") from None
    if version.encode() != VERSION or len(blob) < NONCE_BYTES + TAG_BYTES:
        raise SealBroken("not a sealed value")
    nonce, ciphertext, tag = blob[:NONCE_BYTES], blob[NONCE_BYTES:-TAG_BYTES], blob[-TAG_BYTES:]
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    for secret_key in keys:
        encrypt, mac = _keys(secret_key)
        if hmac.compare_digest(_tag(mac, nonce, ciphertext), tag):
            return _keystream_xor(encrypt, nonce, ciphertext).decode()
    raise SealBroken("sealed under another SECRET_KEY, or altered")
