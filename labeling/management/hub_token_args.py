"""Which Hugging Face token a Hub command (import --hub, hub_push) runs with, chosen as a user of
Hugging Face's own CLI expects: `--token TOKEN` (or `--token -` to read it from standard input,
out of the shell's history and the process list), `--token-from-user USERNAME` (the token that
steplab user saved in their settings), else the HF_TOKEN environment variable (the server's,
settings.HF_TOKEN), else the token `hf auth login` saved (HF_TOKEN_PATH), else none. The
operator runs these commands, so the server's token is not limited to HUB_SERVER_TOKEN_REPOS here
(that setting bounds what a user's pushes and imports through the API may use it for).

The token itself is never printed: the commands name whose it is (`TokenChoice.whose`).
"""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from labeling.errors import DomainError
from labeling.hub.connection import GIVEN, HubAuth, server_auth
from labeling.models import HubToken
from labeling.services.people.hub_tokens import hub_auth_for, hub_token_check


@dataclass(frozen=True)
class TokenChoice:
    """The token a command uses and whose it is, in words; `user` when it is a steplab user's
    saved token (a push records them as its creator)."""

    auth: HubAuth
    whose: str
    user: Any = field(default=None, repr=False)

    @property
    def token(self) -> str | None:
        return self.auth.token


def add_token_arguments(parser: ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--token",
        metavar="TOKEN",
        help="a Hugging Face token, or - to read it from standard input (default: HF_TOKEN, "
        "else the token `hf auth login` saved)",
    )
    group.add_argument(
        "--token-from-user",
        metavar="USERNAME",
        help="use the Hugging Face token this steplab user saved in their settings",
    )


def _saved_login_token() -> str | None:
    """The token `hf auth login` (huggingface-cli login) wrote, read from its file only: no
    OIDC exchange or refresh over the network, as huggingface_hub.get_token may do."""
    from huggingface_hub import constants

    try:
        text = Path(constants.HF_TOKEN_PATH).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text or None


def _checked(token: str, what: str) -> str:
    try:
        return hub_token_check(token)
    except DomainError as exc:  # the message names lengths and characters, never the token
        raise CommandError(f"{what}: {exc.message}") from None


def token_choice(options: dict[str, Any], stdin: IO[str] | None = None) -> TokenChoice:
    """The token the command's options choose (see the module docstring)."""
    if options.get("token"):
        token = options["token"]
        if token == "-":
            # One line, bounded (a token is ~40 characters; hub_token_check refuses long ones).
            token = (stdin or sys.stdin).readline(4096).strip()
            if not token:
                raise CommandError("--token -: standard input gave no token.")
        return TokenChoice(HubAuth(_checked(token, "--token"), GIVEN), "the token given")
    if username := options.get("token_from_user"):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"--token-from-user: no user {username!r}.")
        if not HubToken.objects.filter(user=user).exists():
            raise CommandError(
                f"--token-from-user: {username} has saved no Hugging Face token (their "
                "settings, Hugging Face token)."
            )
        try:
            # Their saved token whatever the repo (checked above); the repo the command names.
            repo_id = options.get("repo_id") or options.get("hub") or ""
            auth = hub_auth_for(user=user, repo_id=repo_id)
        except DomainError as exc:
            raise CommandError(f"--token-from-user: {exc.message}") from None
        return TokenChoice(auth, f"{username}'s saved token", user=user)
    auth = server_auth()
    if auth.token:
        return TokenChoice(auth, "HF_TOKEN")
    if login := _saved_login_token():
        return TokenChoice(HubAuth(login, GIVEN), "the token `hf auth login` saved")
    return TokenChoice(auth, "no token")
