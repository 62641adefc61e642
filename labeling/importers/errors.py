"""The one error an importer raises: what is wrong, and where in the file."""

from typing import Any

from labeling.errors import ValidationFailed


class ImportFileError(ValidationFailed):
    """A row of an import file cannot be read; nothing of the file is imported.

    `line` is 1-based (None when the error is about the whole file); `field` is a path into
    the row such as ``label.steps[3].completions[0].rating`` (None when about the whole line).
    """

    code = "import_error"

    def __init__(self, *, file: str, line: int | None, field: str | None, message: str) -> None:
        super().__init__(message, file=file, line=line, field=field)
        self.file = file
        self.line = line
        self.field = field

    def as_dict(self) -> dict[str, Any]:
        return {"message": self.message, "file": self.file, "line": self.line, "field": self.field}

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return (
            f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"
        )

    def __repr__(self) -> str:
        return (
            f"ImportFileError(file={self.file!r}, line={self.line!r}, field={self.field!r}, "
            f"message={self.message!r})"
        )
