"""Hedges: text around a claim that makes it a hypothesis, a question, a quotation or a
rejected value rather than an assertion ("if", "suppose", "?", "which is wrong", ...).

:func:`hedged` is what check.py asks of every claim that fails: a hedged one is left undecided,
never refuted. symbolic-1.12 (issue 25 round 9, found by probing true statements) adds the
attributed and counterfactual writing of a claim nobody asserts: "one might naively compute",
"it is tempting to conclude", "a common mistake is", "the problem claims that", "if it were
true that", "had we used ..., we'd have", "this does not give", "for example, say"; and after a
claim "absurd", "that is wrong", "overcounts", "should be", "let me fix that".
"""

from __future__ import annotations

import re

from autolabel.symbolic.affirmations import affirmed_test
from autolabel.symbolic.decisions import Context
from autolabel.symbolic.remainders import written_out

# Right before a claim: it is a hypothesis or a question, not an assertion.
_HEDGE_NEAR = re.compile(
    r"\b(if|suppose|supposing|assum\w*|whether|not|check\w*|verify\w*|test\w*|try\w*|"
    r"guess\w*|claim\w*|is it)\W*$|\?\W*$",
    re.IGNORECASE,
)
# Values put into an equation: a test of them (see _HEDGE_FAR).
_SUBSTITUTING = (
    r"(?:plug\w*|substitut\w*)(?:[^.?!\n]*\b(?:into|in|back)\s+(?:the|our|this|that|each|"
    r"both|these|either|all)\s+(?:\w+\s+)?(?:equations?|inequalit\w*|conditions?|system|"
    r"constraints?|congruences?|expression\s+for\s+\w+|original\w*))|(?:plug\w*|substitut\w*)"
    r"(?:[^.?!\n]*\bback\b)"
)
# In the same sentence before it: the author is talking about an error, or testing values.
_HEDGE_FAR = re.compile(
    # "instead of" a claim rejects it; "Instead, we use a known result: ..." switches to
    # another approach and asserts what follows (symbolic round 16)
    r"\b(incorrect\w*|wrong\w*|mistake\w*|mistaken\w*|error\w*|instead\s+of|rather than|"
    r"isn't|wasn't|doesn't|oops|wait|actually|recalculat\w*|recheck\w*|re-?evaluat\w*|"
    # the same negations spelled out, and their kin ("It is not true that 3 + 4 = 8", "this
    # does not mean that", "we do not have", "it is false that"): symbolic-1.11
    # (a negation that describes, "the numbers that are not multiples of 3 are", hedges nothing)
    r"(?:does|do|did|must|should|need|can|could|would)\s+not\s+(?:\w+\s+)?(?:mean|impl\w+|"
    r"follow|conclude|have|write|say|get|hold|claim)\b|don't|didn't|mustn't|shouldn't|"
    r"(?:is|are|was|were)\s+not\s+(?:true|the\s+case|correct|right|valid|so)\b|"
    r"false\s+that|not\s+true|"
    r"misread\w*|miscalculat\w*|typo|test\w*|check\w*|" + _SUBSTITUTING + r"|"
    # substituting values into an equation tests them ("Substituting a = 3 into the equation,
    # we get 783 = 6561"); substituting into a formula or "the squares" computes
    # a hypothesis or a goal, not a result: "suppose, for contradiction, that", "we need",
    # "we want" (not "we need to", nor "she needs 3 * 4 = 12 cups": a quantity), "it is not
    # the case that", "we cannot have", "the total would be"
    r"suppos\w*|assum\w*|hypothetic\w*|contradiction|(?:we|i|you)\s+(?:need|want)(?!\s+to\b)|would\s+be|"
    r"would\s+(?:need|require)|"
    r"cannot|can't|not\s+the\s+case|"
    # symbolic-1.12: a claim attributed to someone else, or counterfactual ("one might naively
    # compute", "it is tempting to conclude", "a common mistake is", "the problem claims that",
    # "if it were true that", "had we used 3, we'd have", "this does not give", "say 2 + 2 = 5")
    r"might|naive\w*|tempt\w*|(?:problem|statement|question)\s+(?:claims?|asserts?)|"
    r"if\s+it\s+were|were\s+it|had\s+we|we'd|would\s+have|for\s+example,?\s+say|"
    r"(?:does|do|did)\s+not\s+(?:give|yield|equal|produce|result)|previously|mistakenly|"
    # symbolic-1.14: a claim quoted from earlier work to correct it ("Correction: the earlier
    # 3 * 4 = 13 is a typo", "earlier I had 5 + 7 = 13, but")
    r"correction|(?:earlier|before|above),?\s+(?:I|we)\s+(?:had|wrote)|"
    r"(?:I|we)\s+(?:had|wrote)\s+(?:earlier|before|above)|the\s+earlier)\b",
    re.IGNORECASE,
)
_HEDGE_AFTER = re.compile(
    r"^[\s\W]{0,4}(\?|is\s+(not|wrong|incorrect|false)|isn't|not\b|wrong|incorrect|"
    # "approximately" after a claim hedges it; "\approx 64.2" goes on with the value of its
    # right side (the approximate context below keeps roundings undecided)
    r"which\s+is\s+(wrong|incorrect|not|false|impossible)|\(wrong|wait|no\b|(?<!\\)approx\w*|"
    r"roughly|(would|will|could)\s+(be\s+)?(not|wrong|incorrect|false|impossible)|"
    # a value tried and rejected: "$1 + 1 = 3$ fails", "(invalid)", "✗"
    r"fail(s|ed)?\b|invalid|not\s+valid|(is\s+)?not\s+satisfied|unsatisfied|by\s+mistake|"
    r"(?:is|was)\s+(?:a\s+|an\s+)?(?:typo|mistake|error|miscalculation|slip)\b|"
    r"[\u2717\u2718\u274c])|"
    r"^.{0,60}\b(false|not true|contradict\w*|impossible|extraneous|absurd|nonsense|"
    r"(?:that|this)\s+is\s+(?:wrong|incorrect)|overcount\w*|undercount\w*|should\s+be|"
    r"let\s+me\s+(?:fix|correct)|"
    r"(does|did|do)\s*(not|n't)\s+(work|hold|satisfy))\b",
    re.IGNORECASE | re.DOTALL,
)
# The claim's sentence ends in a question mark: "Would $2 + 2 = 5$ work?".
_IN_QUESTION = re.compile(r"(?:[^.?!\n]|\.(?=\S))*\?")


_SUBSTITUTED = re.compile(_SUBSTITUTING, re.IGNORECASE)
# Math spacing and sizing that shows nothing ("\\,", "\\;", "\\!", "\\quad", "\\left(", ...)
# and runs of spaces (the prepared text writes "\\," as two): the windows below are counted in
# what is left, so "a\\,=\\,2" reaches as far as "a = 2".
_INVISIBLE = re.compile(
    r"\\[,;:! ]|\\q?quad(?![a-zA-Z])|\\displaystyle(?![a-zA-Z])|\\(?:left|right)(?=[()\[\]|.\\])"
)
_SPACES = re.compile(r"[ \t]{2,}")
_WIDE = 4  # a window's text is read this many times as far, then folded and cut


def _folded(text: str) -> str:
    return _SPACES.sub(
        " ", _INVISIBLE.sub(lambda m: " " if m.group(0)[1] in ",;:! q" else "", text)
    )


def hedged(text: str, start: int, end: int, task: Context, *, derivation: bool = False) -> bool:
    """ "if", "?", "wrong" and the like around ``text[start:end]``, or a modular setting.
    Windows are counted in visible characters (issue 25 round 16: "\\," around every "="
    pushed "Substituting ... into the equation" out of reach of a chain's second link).

    ``derivation``: the claim is that one equation becomes another (kinds rewriting,
    rearranging, solving; symbolic round 16). Values substituted into an equation before it
    test nothing there: "Substituting b + 5 for N in the second equation gives us
    a + (b + 5) + c = 93, which simplifies to a + b + c = 98" claims the simplification."""
    sentence_start = max(
        text.rfind(". ", 0, start), text.rfind("\n", 0, start), start - 120 * _WIDE
    )
    far = _folded(text[max(0, sentence_start) : start])[-120:]
    if derivation:
        far = _SUBSTITUTED.sub(" ", far)
    near = _folded(text[max(0, start - 16 * _WIDE) : start])[-16:]
    after_text = _folded(text[end : end + 200 * _WIDE])
    after = after_text[:80]
    if task.hedged and not written_out(text[start:end]):
        return True  # a modular setting; "n = d q + r" is a division written out, not modular
    if _HEDGE_AFTER.search(after) or _IN_QUESTION.match(after_text[:200]):
        return True
    if not (_HEDGE_NEAR.search(near) or _HEDGE_FAR.search(far)):
        return False
    return not affirmed_test(far, after)  # "We test c = 12: ... = 2017. This is correct"
