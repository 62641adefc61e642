"""Static checks of a documented command: the make target, manage.py command, module or script
it names exists, and its flags parse with that program's own argument parser.

Nothing is run: a program's `parse_args` is intercepted right after it succeeds.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import runpy
import sys
import warnings
from functools import cache
from pathlib import Path
from typing import Any

from tests.docs.blocks import REPO

LAUNCHERS = {"accelerate", "torchrun"}
# `docker compose exec|run` options that take a value (the word after them is not the service).
COMPOSE_VALUE_OPTIONS = {"-v", "--volume", "-e", "--env", "-u", "--user", "-w", "--workdir"}
COMPOSE_VALUE_OPTIONS |= {"--entrypoint", "--name", "-p", "--publish", "--index"}


class _Parsed(Exception):
    def __init__(self, namespace: argparse.Namespace, extra: list[str]) -> None:
        super().__init__("parsed")
        self.namespace, self.extra = namespace, extra


@cache
def make_targets() -> frozenset[str]:
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    return frozenset(re.findall(r"^([A-Za-z0-9_.-]+)\s*:(?!=)", text, flags=re.M))


@cache
def compose_services() -> frozenset[str]:
    import yaml

    data = yaml.safe_load((REPO / "docker-compose.yml").read_text(encoding="utf-8"))
    return frozenset(data["services"])


def _strip_env(words: list[str]) -> list[str]:
    i = 0
    while i < len(words) and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[i]):
        i += 1
    return words[i:]


def parse_manage(name: str, args: list[str]) -> argparse.Namespace:
    """`manage.py NAME ARGS` through the command's own parser (CommandError when it fails)."""
    from django.core.management import get_commands, load_command_class

    app = get_commands().get(name)
    if app is None:
        raise AssertionError(f"no manage.py command {name!r}")
    command = load_command_class(app, name)
    parser = command.create_parser("manage.py", name)
    return parser.parse_args(args)


def parse_program(target: str, args: list[str], *, module: bool) -> argparse.Namespace:
    """Run a module (`python -m`) or a script as __main__ until its parser has parsed `args`."""
    original = argparse.ArgumentParser.parse_known_args

    def intercept(
        self: argparse.ArgumentParser, args: Any = None, namespace: Any = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extra = original(self, args, namespace)
        raise _Parsed(parsed, extra)

    argv, modules, path = sys.argv, set(sys.modules), list(sys.path)
    stderr = io.StringIO()
    sys.argv = [target, *args]
    if not module:  # as `python script.py` does: the script's folder comes first on sys.path
        sys.path.insert(0, str((REPO / target).parent))
    argparse.ArgumentParser.parse_known_args = intercept  # type: ignore[method-assign]
    try:
        with contextlib.redirect_stderr(stderr), warnings.catch_warnings():
            # runpy warns when the module was imported before (by an earlier check): harmless.
            warnings.simplefilter("ignore", RuntimeWarning)
            if module:
                runpy.run_module(target, run_name="__main__", alter_sys=True)
            else:
                runpy.run_path(str(REPO / target), run_name="__main__")
    except _Parsed as parsed:
        if parsed.extra:
            raise AssertionError(f"{target}: unrecognized arguments {parsed.extra}") from None
        return parsed.namespace
    except SystemExit as exit_:
        raise AssertionError(f"{target} {args}: {stderr.getvalue().strip()}") from exit_
    finally:
        argparse.ArgumentParser.parse_known_args = original  # type: ignore[method-assign]
        sys.argv, sys.path[:] = argv, path
        for name in set(sys.modules) - modules:  # run_module's __main__ aliases only
            if name == "__main__" or name.startswith("__mp_main__"):
                del sys.modules[name]
    raise AssertionError(f"{target} never parsed its arguments")


def _python(words: list[str]) -> str:
    """What one `python ...` invocation names; checks it and returns a short description."""
    rest = words[1:]
    if rest[:1] == ["-c"]:
        compile(rest[1], "<python -c>", "exec")
        return "python -c"
    if rest[:1] == ["-m"]:
        parse_program(rest[1], rest[2:], module=True)
        return f"-m {rest[1]}"
    if not rest:
        raise AssertionError("python with no program")
    script = rest[0]
    if script.endswith("manage.py"):
        parse_manage(rest[1], rest[2:])
        return f"manage.py {rest[1]}"
    if not (REPO / script).is_file():
        raise AssertionError(f"no script {script}")
    parse_program(script, rest[1:], module=False)
    return script


def _launcher(words: list[str]) -> str:
    """`accelerate launch [opts] -m MOD ARGS`, `torchrun [opts] -m MOD ARGS`."""
    if "-m" not in words:
        raise AssertionError(f"{words[0]} without -m MODULE")
    at = words.index("-m")
    options = words[1:at]
    for i, word in enumerate(options):
        if word in ("--config_file", "--config-file") and not (REPO / options[i + 1]).is_file():
            raise AssertionError(f"no config file {options[i + 1]}")
    parse_program(words[at + 1], words[at + 2 :], module=True)
    return f"{words[0]} -m {words[at + 1]}"


def check(command_words: list[str]) -> str | None:
    """Check one command; returns what it named (None: a program steplab does not own)."""
    words = _strip_env(command_words)
    if not words:
        return None
    program = Path(words[0]).name
    if program == "make":
        for target in words[1:]:
            if target.startswith("-") or "=" in target:
                continue
            if target not in make_targets():
                raise AssertionError(f"no make target {target!r}")
        return "make"
    if program in ("docker", "docker-compose"):
        for verb in ("exec", "run"):
            if verb in words:
                rest = words[words.index(verb) + 1 :]
                while rest and rest[0].startswith("-"):
                    option = rest.pop(0)
                    if option in COMPOSE_VALUE_OPTIONS:
                        rest.pop(0)
                if rest[0] not in compose_services():
                    raise AssertionError(f"no compose service {rest[0]!r}")
                return check(rest[1:]) or "docker compose"
        return "docker compose"
    if re.fullmatch(r"python(3(\.\d+)?)?", program):
        return _python(words)
    if program in LAUNCHERS:
        return _launcher(words)
    return None
