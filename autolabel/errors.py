class BackendUnavailable(Exception):
    """A model backend (a completion server, a judge) did not answer; the task retries."""


class ItemSkipped(Exception):
    """The worker will not process this item (over its budget: labeling/rules/code_tests.py,
    autolabel/deadline.py); its message is the item's failure as it stands."""

    @classmethod
    def over_budget(cls, name: str, what: str) -> "ItemSkipped":
        """Says it was skipped, why, and which AUTOLABEL_LIMITS key raises the cap."""
        return cls(
            f"skipped: over budget: {what} (AUTOLABEL_LIMITS[{name!r}]; a server admin may "
            "raise it)"
        )
