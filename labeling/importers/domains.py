"""A row's domain, settled once it is parsed: the row's own (steplab's `domain` field), else
the import's "domain for these rows", checked against the project.

A `mixed` project needs a domain on every problem; any other project takes only its own
(stored blank, meaning "the project's", so a later change of the project's domain carries
its problems along). Errors name the file, line and field like every other.
"""

from .fields import Row
from .types import ParsedRow, ParseOptions

MIXED = "mixed"


def option_error(options: ParseOptions) -> str | None:
    """What is wrong with the import's own domain option, if anything."""
    domain, project = options.domain, options.project_domain
    if not domain:
        return None
    if domain not in options.domains:
        return f"unknown domain {domain!r}; expected one of {', '.join(options.domains)}"
    if project and project not in (MIXED, domain):
        return f"the project's domain is {project!r}; only a many-domains project mixes them"
    return None


def settle(parsed: ParsedRow, row: Row) -> None:
    options = row.options
    if not options.project_domain:
        return
    domain = parsed.problem.domain or options.domain
    if domain and domain not in options.domains:
        raise row.error(
            "domain", f"unknown domain {domain!r}; expected one of {', '.join(options.domains)}"
        )
    if options.project_domain == MIXED:
        if not domain:
            raise row.error(
                "domain",
                "missing field: every row of a many-domains (mixed) project names its domain "
                "(or import the file with a domain for its rows)",
            )
        parsed.problem.domain = domain
        return
    if domain and domain != options.project_domain:
        raise row.error(
            "domain",
            f"the row says {domain!r} but the project's domain is {options.project_domain!r}; "
            "only a many-domains (mixed) project takes rows of several domains",
        )
    parsed.problem.domain = ""
