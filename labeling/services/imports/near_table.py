"""The new problems of one import (or one backfill batch), held compactly for the near-duplicate
screen (near_keys.NearKeys): what a later problem of the same file is matched against.

An import keeps every new problem of its file until the end (its signature for the Jaccard
check, its band keys for the candidates, what a report says of it). Held as Python objects
(a MinHash, its text and a list of (band, hash) tuples per problem, a dict entry per band key)
that was about 5.7 KB per problem: 1.37 GB of peak RSS for a file of 124,606 distinct problems
(docs/benchmarks.md, "At a million solutions (issue 26)"). Here, per problem:

- its external id (the one string, which the screen's sets hold too);
- its signature, a row of a matrix of the signature's own dtype (uint32: 512 bytes), grown
  in blocks of BLOCK rows;
- its normalized text's 64-bit hash (for `Match.exact`) and whether later problems report it;

and per band key it holds: its hash, band and problem index in three parallel arrays sorted by
hash (14 bytes), where a batch's keys are looked up at once (`holders`: one vectorized binary
search) and the batch's new keys merged in at the next lookup. Texts are not kept: a report's
example reads its in-file match's text back after the rows are written (near_dups.py).
"""

from collections.abc import Iterable, Iterator

import numpy as np

from labeling.rules.near_dups import PERMUTATIONS, SIGNATURE_DTYPE

BLOCK = 1024  # signature rows per allocation (512 KB)
Key = tuple[int, int]  # (band number, hash)


def exact_hash(exact_key: str) -> int:
    """The first 64 bits of a normalized text's sha256 (near_dups.exact_key, hex)."""
    return int(exact_key[:16], 16)


class NewProblems:
    """Append-only: problem i is the i-th `add`; `hold` files a band key under a problem."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self._sigs: list[np.ndarray] = []
        self._exact: list[np.ndarray] = []
        self._reportable: list[np.ndarray] = []
        self._hash = np.empty(0, dtype=np.int64)
        self._band = np.empty(0, dtype=np.int16)
        self._idx = np.empty(0, dtype=np.int32)
        self._pending: list[tuple[int, int, int]] = []  # (hash, band, index), not merged yet

    def __len__(self) -> int:
        return len(self.keys)

    def add(self, key: str, values: np.ndarray, exact: int, *, reportable: bool) -> int:
        """A new problem; returns its index (its order in the file)."""
        i = len(self.keys)
        row = i % BLOCK
        if row == 0:
            self._sigs.append(np.empty((BLOCK, PERMUTATIONS), dtype=SIGNATURE_DTYPE))
            self._exact.append(np.empty(BLOCK, dtype=np.uint64))
            self._reportable.append(np.empty(BLOCK, dtype=np.bool_))
        self._sigs[-1][row] = values
        self._exact[-1][row] = exact
        self._reportable[-1][row] = reportable
        self.keys.append(key)
        return i

    def signature(self, i: int) -> np.ndarray:
        return self._sigs[i // BLOCK][i % BLOCK]

    def exact(self, i: int) -> int:
        return int(self._exact[i // BLOCK][i % BLOCK])

    def reportable(self, i: int) -> bool:
        return bool(self._reportable[i // BLOCK][i % BLOCK])

    def hold(self, key: Key, i: int) -> None:
        """Problem i stores band key `key` (found by later lookups)."""
        self._pending.append((key[1], key[0], i))

    def holders(self, keys: Iterable[Key]) -> dict[Key, list[int]]:
        """The problems (indexes, in order) holding each of `keys`: one binary search of the
        sorted arrays for all of them, after merging the keys held since the last call."""
        self._merge()
        wanted = list(dict.fromkeys(keys))
        found: dict[Key, list[int]] = {k: [] for k in wanted}
        if not wanted or not len(self._hash):
            return found
        hashes = np.fromiter((h for _, h in wanted), dtype=np.int64, count=len(wanted))
        lo = np.searchsorted(self._hash, hashes, side="left")
        counts = np.searchsorted(self._hash, hashes, side="right") - lo
        hit = np.flatnonzero(counts)
        if not hit.size:
            return found
        # Every (wanted key, array position) pair of equal hashes, then those of the same
        # band, without a Python step per position: a key can have KEY_MAX holders, and a
        # batch has about nine keys a new problem.
        reps = counts[hit]
        which = np.repeat(hit, reps)
        first = np.repeat(lo[hit] - (np.cumsum(reps) - reps), reps)
        at = first + np.arange(int(reps.sum()))
        bands = np.fromiter((wanted[n][0] for n in hit), dtype=np.int16, count=hit.size)
        same = self._band[at] == np.repeat(bands, reps)
        for n, i in zip(which[same].tolist(), self._idx[at[same]].tolist(), strict=True):
            found[wanted[n]].append(i)  # in index order: a later problem's key comes after
        return found

    def _merge(self) -> None:
        if not self._pending:
            return
        new = np.array(self._pending, dtype=np.int64)
        self._pending = []
        new = new[np.argsort(new[:, 0], kind="stable")]
        # Inserted after equal hashes (a later problem's index after an earlier one's): one
        # copy of the arrays per batch, where sorting them again would cost N log N.
        at = np.searchsorted(self._hash, new[:, 0], side="right")
        self._hash = np.insert(self._hash, at, new[:, 0])
        self._band = np.insert(self._band, at, new[:, 1].astype(np.int16))
        self._idx = np.insert(self._idx, at, new[:, 2].astype(np.int32))

    def held_keys(self, size: int) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Every held key as (bands, hashes, problem indexes), `size` at a time."""
        self._merge()
        for start in range(0, len(self._hash), size):
            end = start + size
            yield self._band[start:end], self._hash[start:end], self._idx[start:end]


class KeySet:
    """Band keys as two parallel arrays sorted by hash (10 bytes a key): the keys an import
    looked up and found no stored problem under, so that a later batch does not ask again
    (near-duplicate variants of one problem share most of their keys)."""

    def __init__(self) -> None:
        self._hash = np.empty(0, dtype=np.int64)
        self._band = np.empty(0, dtype=np.int16)

    def __len__(self) -> int:
        return len(self._hash)

    def contains(self, keys: list[Key]) -> list[bool]:
        if not keys or not len(self._hash):
            return [False] * len(keys)
        hashes = np.fromiter((h for _, h in keys), dtype=np.int64, count=len(keys))
        lo = np.searchsorted(self._hash, hashes, side="left")
        hi = np.searchsorted(self._hash, hashes, side="right")
        found = [False] * len(keys)
        for n in np.flatnonzero(hi > lo).tolist():  # a hash collision across bands is rare
            found[n] = bool((self._band[lo[n] : hi[n]] == keys[n][0]).any())
        return found

    def add(self, keys: list[Key]) -> None:
        if not keys:
            return
        new = np.array([(h, b) for b, h in keys], dtype=np.int64)
        new = new[np.argsort(new[:, 0], kind="stable")]
        at = np.searchsorted(self._hash, new[:, 0], side="right")
        self._hash = np.insert(self._hash, at, new[:, 0])
        self._band = np.insert(self._band, at, new[:, 1].astype(np.int16))
