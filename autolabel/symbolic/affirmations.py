"""A value tested and then affirmed: the test's hedge no longer holds (symbolic-1.7).

check.py does not refute a claim in a sentence that tests or checks values ("We test some
integer values of c", "Checking x = 2:", "Try n = 5"): a tried value may be rejected right
after. When the writer affirms the computation right after it instead ("... = 2017. This is
correct, so c = 12", "which is true", "✓"), the computation is asserted, and it is decided.

Only the testing words are lifted. A claim stays hedged where the sentence also speaks of an
error or a correction ("wrong", "instead", "actually", "wait"), a hypothesis ("if",
"suppose", "would"), a negation ("not", "cannot"), or a question, and where the words after
it deny it ("is not correct", "fails"), as check.py's other rules say.
"""

from __future__ import annotations

import re

# Right after the claim (its display's closing and punctuation allowed): an affirmation.
_AFFIRMED = re.compile(
    r"^(?:[\s.,;:$)\]]|\\[()\[\]]|\\quad|\\qquad)*"
    r"(?:(?:this|which|that|it)\s+(?:is\s+|are\s+)?(?:indeed\s+)?"
    r"(?:correct|true|right|valid|works|holds|checks\s+out)\b(?!\s+(?:if|when|only|for\s+\w+\s*\?))"
    r"|(?:correct|true|yes)\s*[!.,]"
    r"|\\checkmark|[\u2713\u2714\u2705])",
    re.IGNORECASE,
)
# In the sentence before the claim: a test, which an affirmation lifts ...
_TESTING = re.compile(r"\b(?:check\w*|verify\w*|test\w*|try\w*|trying|plug\w*)\b", re.IGNORECASE)
# ... and what no affirmation lifts: an error or a correction, a hypothesis, a negation.
_NOT_LIFTED = re.compile(
    r"\b(?:if|suppos\w*|assum\w*|whether|not|no|incorrect\w*|wrong\w*|mistake\w*|error\w*|"
    r"instead|rather|isn't|wasn't|doesn't|oops|wait|actually|recalculat\w*|recheck\w*|"
    r"re-?evaluat\w*|misread\w*|miscalculat\w*|typo|guess\w*|claim\w*|hypothetic\w*|"
    r"contradiction|would|cannot|can't|need|want|substitut\w*|mod\w*|congruen\w*)\b|\?",
    re.IGNORECASE,
)


def affirmed_test(before: str, after: str) -> bool:
    """``before``: the claim's sentence up to it; ``after``: the text right after it. True
    when the only hedge in the sentence is a test and the words after affirm the claim."""
    return bool(
        _TESTING.search(before) and not _NOT_LIFTED.search(before) and _AFFIRMED.match(after)
    )


__all__ = ["affirmed_test"]
