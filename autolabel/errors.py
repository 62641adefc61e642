class BackendUnavailable(Exception):
    """A model backend (a completion server, a judge) did not answer; the task retries."""
