# ruff: noqa: F811 (the fixtures imported below are used as arguments)
"""The Hub commands' token, as a Hugging Face CLI user expects it: `--token TOKEN` (or `-`
from standard input), `--token-from-user USERNAME` (a steplab user's saved token), else HF_TOKEN,
else the token `hf auth login` saved. Against the local stand-in (no network): which token the
Hub received is what it recorded; the token never appears in what the command prints."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from labeling.models import HubPush, Solution
from labeling.services.exports.hub import hub_push_run
from labeling.services.people.hub_tokens import hub_token_set
from tests.exports.test_api import world  # noqa: F401
from tests.exports.test_hub import TOKEN, hub  # noqa: F401
from tests.exports.test_hub_token import ALICE, _done_export

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_login_token(tmp_path, monkeypatch):
    """No `hf auth login` token on this machine unless a test writes one."""
    from huggingface_hub import constants

    path = tmp_path / "hf-token"
    monkeypatch.setattr(constants, "HF_TOKEN_PATH", str(path))
    return path


@pytest.fixture
def alice_repo(world, hub, no_login_token):
    """A private repo only ALICE's token can read, with the world's export in it."""
    export = _done_export(world)
    push = hub_push_run(
        export=export, repo_id="alice/private", private=True, created_by=None, token=ALICE
    )
    assert push.status == "done", push.error
    hub.tokens.clear()
    return export


def _import(*args: str, stdin: str | None = None) -> str:
    out, err = io.StringIO(), io.StringIO()
    extra = {"stdin": io.StringIO(stdin)} if stdin is not None else {}
    try:
        call_command(
            "import",
            "--hub",
            "alice/private",
            "--project",
            "copy",
            "--create-project",
            "--format",
            "trl",
            "--no-progress",
            *args,
            stdout=out,
            stderr=err,
            **extra,
        )
    finally:
        said = out.getvalue() + err.getvalue()
        assert ALICE not in said and TOKEN not in said
    return said


def _imported() -> int:
    return Solution.objects.filter(problem__project__name="copy").count()


def test_import_hub_without_a_token_that_reads_it_fails_in_words(alice_repo, hub):
    with pytest.raises(CommandError, match=r"private and the token cannot read it \(the serv"):
        _import()
    assert hub.tokens and set(hub.tokens) == {TOKEN}  # HF_TOKEN by default
    assert _imported() == 0


def test_import_hub_with_token(alice_repo, hub):
    said = _import("--token", ALICE)
    assert "with the token given" in said
    assert _imported() == alice_repo.row_count
    assert set(hub.tokens) == {ALICE}


def test_import_hub_with_the_token_from_standard_input(alice_repo, hub):
    said = _import("--token", "-", stdin=ALICE + "\n")
    assert "with the token given" in said and _imported() == alice_repo.row_count
    assert set(hub.tokens) == {ALICE}
    with pytest.raises(CommandError, match="standard input gave no token"):
        _import("--token", "-", stdin="\n")


def test_import_hub_with_a_users_saved_token(alice_repo, world, hub):
    admin = world["users"]["admin"]
    with pytest.raises(CommandError, match="admin has saved no Hugging Face token"):
        _import("--token-from-user", "admin")
    with pytest.raises(CommandError, match="no user 'nobody'"):
        _import("--token-from-user", "nobody")
    hub_token_set(user=admin, token=ALICE, check=False)
    said = _import("--token-from-user", "admin")
    assert "with admin's saved token" in said and _imported() == alice_repo.row_count
    assert set(hub.tokens) == {ALICE}


def test_import_hub_reads_the_token_hf_auth_login_saved(alice_repo, hub, settings, no_login_token):
    settings.HF_TOKEN = ""
    no_login_token.write_text(ALICE + "\n")
    said = _import()
    assert "with the token `hf auth login` saved" in said
    assert _imported() == alice_repo.row_count and set(hub.tokens) == {ALICE}
    settings.HF_TOKEN = TOKEN  # HF_TOKEN wins over the saved login, as in huggingface_hub
    with pytest.raises(CommandError, match="private and the token cannot read it"):
        call_command("import", "--hub", "alice/private", "--project", "copy", stdout=io.StringIO())


@pytest.mark.parametrize(
    "args, message",
    [
        (["--token", "short"], "--token: A Hugging Face token is 8 to 400 characters"),
        (["--token", "hf_with space inside"], "--token: A Hugging Face token has no spaces"),
        (["--token", ALICE, "--token-from-user", "admin"], "not allowed with argument"),
    ],
)
def test_bad_token_options_are_refused_before_the_hub_is_asked(alice_repo, hub, args, message):
    with pytest.raises(CommandError, match=message) as refused:
        _import(*args)
    assert "hf_with" not in str(refused.value) and ALICE not in str(refused.value)
    assert hub.tokens == []


def test_token_options_need_hub(tmp_path):
    with pytest.raises(CommandError, match="go with --hub"):
        call_command("import", str(tmp_path / "x.jsonl"), "--project", "p", "--token", ALICE)


def test_a_hub_error_quoting_the_token_is_scrubbed(alice_repo, hub):
    hub.echo_token_error = True
    with pytest.raises(CommandError) as failed:
        _import("--token", ALICE)
    assert "[token]" in str(failed.value) and ALICE not in str(failed.value)


def test_hub_push_with_a_users_saved_token_records_them(world, hub, no_login_token):
    admin = world["users"]["admin"]
    hub_token_set(user=admin, token=ALICE, check=False)
    export = _done_export(world)
    out = io.StringIO()
    call_command(
        "hub_push", str(export.pk), "alice/pushed", "--token-from-user", "admin", stdout=out
    )
    assert "with admin's saved token" in out.getvalue() and ALICE not in out.getvalue()
    push = HubPush.objects.get(repo_id="alice/pushed")
    assert push.created_by == admin and push.token_kind == "user"
    assert hub.repos["alice/pushed"].owner_token == ALICE

    call_command("hub_push", str(export.pk), "team/pushed", stdout=io.StringIO())
    push = HubPush.objects.get(repo_id="team/pushed")
    assert push.token_kind == "server" and hub.repos["team/pushed"].owner_token == TOKEN

    given = "hf_givenONstandardINPUT"
    call_command(
        "hub_push",
        str(export.pk),
        "cli/pushed",
        "--token",
        "-",
        stdin=io.StringIO(given),
        stdout=io.StringIO(),
    )
    push = HubPush.objects.get(repo_id="cli/pushed")
    assert push.token_kind == "given" and hub.repos["cli/pushed"].owner_token == given
