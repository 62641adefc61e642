"""Secrets stored encrypted at rest (a user's Hugging Face token), with a key derived from
SECRET_KEY: `seal` then `unseal`.

Fernet (`cryptography`: AES-128-CBC with an HMAC-SHA256 tag checked before decrypting, a random
IV per secret), its key derived from SECRET_KEY with HKDF-SHA256 under a steplab-specific label,
so the key is not SECRET_KEY itself and serves nothing else. A sealed value is `f1:` and the
Fernet token.

SECRET_KEY_FALLBACKS are tried when the current key does not authenticate the value (MultiFernet),
so rotating SECRET_KEY the way Django documents keeps saved secrets readable; a value sealed
under a key that is gone raises SealBroken (its owner saves the secret again).
"""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

PREFIX = "f1:"
INFO = b"steplab sealed secret v1"


class SealBroken(ValueError):
    """The value was not sealed under SECRET_KEY or any of its fallbacks, or was altered."""


def _fernet(secret_key: str) -> Fernet:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=INFO).derive(
        secret_key.encode()
    )
    return Fernet(base64.urlsafe_b64encode(key))


def _keys() -> MultiFernet:
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return MultiFernet([_fernet(k) for k in keys])


def seal(text: str) -> str:
    """`text` encrypted and authenticated under SECRET_KEY."""
    return PREFIX + _fernet(settings.SECRET_KEY).encrypt(text.encode()).decode("ascii")


def unseal(sealed: str) -> str:
    """The text `seal` was given; SealBroken when no configured key authenticates it."""
    if not isinstance(sealed, str) or not sealed.startswith(PREFIX):
        raise SealBroken("not a sealed value")
    try:
        return _keys().decrypt(sealed[len(PREFIX) :].encode("ascii")).decode()
    except (InvalidToken, UnicodeError, ValueError):
        raise SealBroken("sealed under another SECRET_KEY, or altered") from None
