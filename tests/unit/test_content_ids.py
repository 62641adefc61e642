"""Content ids (labeling/importers/ids.py): problem_id and solution_id, written string by
string for speed (issue 26), are content_id's JSON digest of the same parts."""

import random

from labeling.importers.ids import content_id, normalize, problem_id, solution_id

TEXTS = [
    "",
    " ",
    "a\u0301",  # NFC composes it
    "\u00e9",
    "x\ty\n  z ",
    '"quoted" \\ back\\slash',
    "\u2028line\u2029para",
    "\x1f\x7f control",
    "日本語",
    "emoji 😀",
    "\ufb01 ligature",
    "Step 1: 2 + 2 = 4",
    "\u3000ideographic\u00a0nbsp\u0085",
    "\u0301 a combining mark first",
    "   \n\t ",
    "plain ascii, one space apart",
    "two  spaces",
    " lead",
    "trail ",
    "x\x1fy",  # a separator: whitespace to str.split
    "x\x0by\x0cz",
]


def test_the_ids_are_content_ids_of_the_same_parts():
    rng = random.Random(26)
    for _ in range(2000):
        problem = rng.choice(TEXTS) + rng.choice(TEXTS)
        steps = [rng.choice(TEXTS) + " " + rng.choice(TEXTS) for _ in range(rng.randint(0, 6))]
        generator = rng.choice(TEXTS)
        assert problem_id(problem) == content_id("problem", problem)
        assert solution_id(problem, steps, generator) == content_id(
            "solution", problem, generator, steps
        )


def test_the_same_text_normalized_is_the_same_problem():
    assert problem_id(" a\u0301  b\n") == problem_id("\u00e1 b")
    assert normalize(" a\u0301  b\n") == "\u00e1 b"
    assert solution_id("p", ["x  y"], "g") == solution_id(" p ", ["x y"], "g")
    assert solution_id("p", ["x"], "g") != solution_id("p", ["x"], "h")


def test_normalize_is_nfc_with_whitespace_runs_collapsed():
    """normalize() returns plain ASCII text as it is: the same as the full rule."""
    import unicodedata

    rng = random.Random(7)
    alphabet = ["a", "Z", "1", " ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x7f"]
    alphabet += ["\u00e9", "e\u0301", "\u00a0", "\u2028", "\u3000", ".", '"', "\\"]
    texts = TEXTS + [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(5000)
    ]
    for text in texts:
        assert normalize(text) == " ".join(unicodedata.normalize("NFC", text).split()), repr(text)


def test_only_texts_of_a_bounded_length_are_cached():
    """A problem's text may be megabytes (a 10 MB line): the caches keep short texts only."""
    from labeling.importers import ids
    from labeling.rules import near_dups

    ids._id_cached.cache_clear()
    near_dups._normalize_cached.cache_clear()
    long = "a long problem " * 400  # 6,000 characters
    assert problem_id(long) == content_id("problem", long)
    near_dups.normalize(long)
    assert ids._id_cached.cache_info().currsize == 0
    assert near_dups._normalize_cached.cache_info().currsize == 0
    problem_id("a short problem")
    near_dups.normalize("a short problem")
    assert ids._id_cached.cache_info().currsize == 1
    assert near_dups._normalize_cached.cache_info().currsize == 1
