"""The guidelines the labeling page shows: the project's, with the default text's rating rule
said the way the project's mode works."""

EVERY_STEP = "Rate every step of the solution, in order, as a careful teacher would."
UNTIL_FIRST_ERROR = (
    "Rate the steps of the solution in order, as a careful teacher would, and stop at the\n"
    "first wrong step: the steps after it are not rated."
)


def guidelines_shown(*, guidelines: str, first_error_mode: bool) -> str:
    """`guidelines`, where a first-error project kept the default's "Rate every step"
    sentence, with that sentence saying to stop at the first wrong step. Guidelines an admin
    wrote are shown as written."""
    if first_error_mode and EVERY_STEP in guidelines:
        return guidelines.replace(EVERY_STEP, UNTIL_FIRST_ERROR)
    return guidelines
