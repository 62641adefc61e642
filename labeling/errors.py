"""Domain errors raised by services; the API maps each to one HTTP status and error code."""


class DomainError(Exception):
    code = "error"
    status = 400

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class ValidationFailed(DomainError):
    code = "validation_error"
    status = 400


class Conflict(DomainError):
    code = "conflict"
    status = 409


class NotAllowed(DomainError):
    code = "permission_denied"
    status = 403


class Gone(DomainError):
    """A link that worked once and does not any more (used, withdrawn, expired)."""

    code = "gone"
    status = 410


class NotAuthenticated(DomainError):
    """The credentials the request came with stopped working during it (its token was revoked
    meanwhile)."""

    code = "not_authenticated"
    status = 401


class Missing(DomainError):
    code = "not_found"
    status = 404


class ProjectDeleted(Gone):
    code = "project_deleted"

    def __init__(self, message: str = "This project was deleted.", **details: object) -> None:
        super().__init__(message, **details)
