class BackendUnavailable(Exception):
    """A model backend (a completion server, a judge) did not answer; the task retries."""


class ItemSkipped(Exception):
    """The worker will not process this item (over its budget: labeling/rules/code_tests.py);
    its message is the item's failure as it stands ("skipped: over budget: ...")."""
