"""Near-duplicate problems: MinHash LSH (datasketch) over word shingles of normalized text.

`normalize` lowercases, drops LaTeX spacing commands (\\, \\; \\quad \\! ...) and `$`, and
collapses whitespace; numbers are kept, so "3 apples" and "4 apples" differ. Two problems are
near-duplicates when the Jaccard similarity of their word 3-shingles is at least the threshold
(settings.NEAR_DUP_THRESHOLD, 0.8 by default) as estimated by 128 MinHash permutations, or
when their normalized texts are equal (short problems have few shingles).

`NearIndex` answers "is this text a near-duplicate of one of these?" in memory (export
decontamination against benchmark sets). `clusters` groups keys into near-duplicate clusters
(union-find over LSH candidates) in memory: the reference the clusters stored at import are
tested against.

Band keys (`band_keys`): the LSH bands of a signature as (band, 64-bit hash) pairs, with the
band layout datasketch's MinHashLSH picks for the threshold (9 bands of 13 values at 0.8), so
two signatures are LSH candidates exactly when they share a band key (as in MinHashLSH, up to
64-bit hash collisions, which the Jaccard check removes). The band number carries the band's
width (`width * BAND_STRIDE + position`): keys stored under another threshold's layout match
none of this one's. An import stores them per problem (ProblemBand) and finds candidates
with an indexed query instead of an index in memory (services/imports/near_keys.py).
"""

import functools
import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
from datasketch import LeanMinHash, MinHash, MinHashLSH
from datasketch.lsh import _optimal_param
from django.conf import settings

PERMUTATIONS = 128
SHINGLE = 3  # words per shingle
_LATEX_SPACE = re.compile(r"\\(?:[,;:!> ]|quad|qquad|enspace|thinspace|medspace|thickspace)")
_LATEX_WRAP = re.compile(r"\\(?:left|right|displaystyle|textstyle)\b")
_NON_WORD = re.compile(r"[^\w.\\^+\-*/=<>()]+")
_SPACE = re.compile(r"\s+")


def normalize(text: str) -> str:
    # An import reads a new problem's normalized text three times (its signature, its exact
    # key when matched and when added) and a stored candidate's once per problem that finds
    # it: texts of up to 4,096 characters are cached (at most 1,024: under 10 MB).
    return _normalize_cached(text) if len(text) <= 4096 else _normalize(text)


@functools.lru_cache(maxsize=1024)
def _normalize_cached(text: str) -> str:
    return _normalize(text)


def _normalize(text: str) -> str:
    text = _LATEX_SPACE.sub(" ", text.lower())
    text = _LATEX_WRAP.sub(" ", text).replace("$", " ")
    text = _NON_WORD.sub(" ", text)
    return _SPACE.sub(" ", text).strip().rstrip(".").strip()


def exact_key(text: str) -> str:
    return hashlib.sha256(normalize(text).encode()).hexdigest()


def shingles(text: str) -> set[bytes]:
    words = normalize(text).split()
    if len(words) <= SHINGLE:
        return {" ".join(words).encode()}
    return {" ".join(words[i : i + SHINGLE]).encode() for i in range(len(words) - SHINGLE + 1)}


# The permutations are the same for every signature (seed 1): made once, not per MinHash.
_FIRST = MinHash(num_perm=PERMUTATIONS)
_PERMS, _SCHEME = _FIRST.permutations, _FIRST.scheme


def signature(text: str) -> MinHash:
    sig = MinHash(num_perm=PERMUTATIONS, permutations=_PERMS, scheme=_SCHEME)
    sig.update_batch(list(shingles(text)))
    return sig


_DTYPE = _FIRST.hashvalues.dtype.newbyteorder("<")
SIGNATURE_DTYPE = _DTYPE  # a signature's values as stored (uint32 under the affine32 scheme)


def signature_bytes(sig: MinHash) -> bytes:
    """How a signature is stored (ProblemSignature.hashvalues)."""
    return np.asarray(sig.hashvalues, dtype=_DTYPE).tobytes()


def signature_from_bytes(data: bytes) -> LeanMinHash:
    values = np.frombuffer(bytes(data), dtype=_DTYPE)
    return LeanMinHash(seed=_FIRST.seed, hashvalues=values, scheme=_SCHEME)


def threshold() -> float:
    return float(settings.NEAR_DUP_THRESHOLD)


BAND_STRIDE = 200  # band number = width * BAND_STRIDE + position (widths up to 128: smallint)


@functools.lru_cache(maxsize=8)
def _layout(limit: float) -> tuple[int, int]:
    bands, width = _optimal_param(limit, PERMUTATIONS, 0.5, 0.5)
    return int(bands), int(width)


def band_layout(limit: float | None = None) -> tuple[int, int]:
    """(bands, values per band) for the threshold: MinHashLSH's own choice (equal weights of
    false positives and false negatives), so stored keys find what MinHashLSH would."""
    return _layout(limit if limit is not None else threshold())


def band_numbers(limit: float | None = None) -> list[int]:
    bands, width = band_layout(limit)
    return [width * BAND_STRIDE + i for i in range(bands)]


def band_keys(sig: MinHash | LeanMinHash, limit: float | None = None) -> list[tuple[int, int]]:
    """(band number, signed 64-bit hash of the band's values) for each LSH band of `sig`."""
    bands, width = band_layout(limit)
    data = np.asarray(sig.hashvalues, dtype=_DTYPE).tobytes()
    step = width * _DTYPE.itemsize
    keys = []
    for i in range(bands):
        digest = hashlib.blake2b(data[i * step : (i + 1) * step], digest_size=8).digest()
        keys.append((width * BAND_STRIDE + i, int.from_bytes(digest, "little", signed=True)))
    return keys


@dataclass
class NearIndex:
    """Texts indexed by a key; `match(text)` names one indexed key it near-duplicates."""

    threshold: float = field(default_factory=threshold)
    _lsh: MinHashLSH = field(init=False)
    _exact: dict[str, str] = field(default_factory=dict)
    _sigs: dict[str, MinHash] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._lsh = MinHashLSH(threshold=self.threshold, num_perm=PERMUTATIONS)

    def __len__(self) -> int:
        return len(self._sigs)

    def add(self, key: str, text: str, sig: MinHash | None = None) -> None:
        if key in self._sigs:
            return
        sig = sig or signature(text)
        self._exact.setdefault(exact_key(text), key)
        self._sigs[key] = sig
        self._lsh.insert(key, sig)

    def candidates(self, text: str, sig: MinHash | None = None) -> list[str]:
        """Indexed keys that are near-duplicates of `text` (exact matches first)."""
        found: list[str] = []
        if (key := self._exact.get(exact_key(text))) is not None:
            found.append(key)
        sig = sig or signature(text)
        for key in sorted(self._lsh.query(sig)):
            # LSH gives candidates; keep those whose estimated Jaccard clears the threshold.
            if key not in found and sig.jaccard(self._sigs[key]) >= self.threshold:
                found.append(key)
        return found

    def match(self, text: str, sig: MinHash | None = None) -> str | None:
        found = self.candidates(text, sig)
        return found[0] if found else None


def clusters(
    texts: Mapping[str, str],
    *,
    limit: float | None = None,
    sigs: Mapping[str, MinHash] | None = None,
) -> dict[str, str]:
    """Key → its near-duplicate cluster's representative (the smallest key in the cluster);
    keys with no near-duplicate map to themselves. `sigs`: stored signatures by key."""
    index = NearIndex(threshold=limit if limit is not None else threshold())
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for key in sorted(texts):
        text = texts[key]
        sig = (sigs or {}).get(key) or signature(text)
        parent[key] = key
        for other in index.candidates(text, sig):
            a, b = root(key), root(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
        index.add(key, text, sig)
    return {key: root(key) for key in parent}


def near_pairs(texts: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """(key, earlier key it near-duplicates) for each text that repeats an earlier one."""
    index = NearIndex()
    pairs = []
    for key, text in texts:
        sig = signature(text)
        if (other := index.match(text, sig)) is not None:
            pairs.append((key, other))
        index.add(key, text, sig)
    return pairs
