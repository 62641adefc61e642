"""Near-duplicate candidates from stored LSH band keys, and near-duplicate clusters kept at
import: what an import's near-duplicate screen (near_dups.py) and the backfill
(near_rebuild.py) read and write.

A `NearKeys` serves one import (or one backfill batch) of a project:
- `lookup(sigs)`: one indexed query (ProblemBand, by project, band and hash) for all the band
  keys of a batch's new problems, then one for the candidates' signatures and texts. Its cost
  is the batch's, whatever the project's size (no index of the project in memory).
- `matches(key, text, sig)`: the verified near-duplicates of a new problem among the
  project's candidates and the problems added before it (its Jaccard estimate clears the
  threshold, as near_dups.NearIndex checks LSH candidates).
- `add(...)`: a new problem that will be imported: its band keys in memory, and its cluster
  joined with those of its matches (union-find).
- `store(pks)`: after the rows are written: the new problems' signatures and band keys
  (bulk), and the clusters: each merge relabels the smaller cluster (by count of members)
  with the larger one's name, so a problem is relabelled O(log n) times over its life.

Bounds: a band key takes at most KEY_MAX problems of a project (a crowded key, as templated
problems make, would make every lookup read all of them; a problem is still found through
its other keys), and a problem whose signature equals a match's adds no keys (it would find
exactly what that one finds).
"""

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np
from datasketch import LeanMinHash, MinHash
from django.db import connection
from django.db.models import Q

from labeling.importers.ids import problem_id
from labeling.models import Problem, ProblemBand, ProblemSignature, Project
from labeling.rules.near_dups import (
    band_keys,
    exact_key,
    signature,
    signature_bytes,
    signature_from_bytes,
    threshold,
)

KEY_MAX = 64  # problems of a project stored under one band key
STORE_BATCH = 2000  # rows per bulk insert
Key = tuple[int, int]  # (band number, hash)


def lookup_size() -> int:
    """Values per `IN` lookup: SQLite's old 999-variable limit, else a batch's keys at once."""
    return 900 if connection.vendor == "sqlite" else 20_000


def chunks(items: list, size: int) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


@dataclass(slots=True)
class Match:
    """A verified near-duplicate of a new problem."""

    node: tuple[str, str]  # ("db", cluster name) or ("new", key): its cluster's union-find node
    key: str  # as reported: the external id, else "pk:<id>"; a new problem's key
    text: str
    exact: bool  # equal after normalization
    existing: bool  # the project's (else an earlier new problem of this import)
    order: int  # among exact matches: the project's by id first, then the import's order
    reportable: bool = True
    same: bool = False  # identical signature


@dataclass(slots=True)
class _Stored:
    pk: int
    ext: str
    text: str
    cluster: str  # its cluster's name (near_cluster, else its own split key)
    single: bool  # near_cluster blank: a cluster of its own
    sig: LeanMinHash


@dataclass
class NearKeys:
    project: Project
    limit: float = field(default_factory=threshold)
    _db_keys: dict[Key, list[int]] = field(default_factory=dict)  # looked-up keys' problems
    _db: dict[int, _Stored] = field(default_factory=dict)
    _mem_keys: dict[Key, list[str]] = field(default_factory=lambda: defaultdict(list))
    _mem: dict[str, tuple[MinHash, str, bool, int]] = field(default_factory=dict)
    _mem_exact: dict[str, str] = field(default_factory=dict)
    _bands: dict[str, list[Key]] = field(default_factory=dict)  # keys each new problem stores
    _parent: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    _singles: dict[str, int] = field(default_factory=dict)  # a one-problem cluster's pk

    # Reading the project's candidates ------------------------------------------------------

    def lookup(self, sigs: Iterable[MinHash]) -> None:
        """Fetch the project's problems that share a band key with any of `sigs`."""
        # Filtered key by key: `set - dict.keys()` iterates the whole dict, which holds every
        # band key looked up so far (millions at a million solutions: O(N) per batch, and
        # the import's rate fell with N, bench/import_bench.py).
        known = self._db_keys
        wanted = {k for sig in sigs for k in band_keys(sig, self.limit) if k not in known}
        if not wanted:
            return
        found: dict[Key, list[int]] = {k: [] for k in wanted}
        for part in chunks(sorted(wanted), lookup_size()):
            by_band: dict[int, list[int]] = defaultdict(list)
            for band, value in part:
                by_band[band].append(value)
            where = Q()
            for band, values in by_band.items():
                where |= Q(band=band, hash__in=values)
            rows = ProblemBand.objects.filter(project=self.project).filter(where)
            for band, value, pk in rows.values_list("band", "hash", "problem_id"):
                found[(band, value)].append(pk)
        self._db_keys.update(found)
        missing = sorted({pk for pks in found.values() for pk in pks if pk not in self._db})
        for part in chunks(missing, lookup_size()):
            rows = Problem.objects.filter(pk__in=part).values_list(
                "pk", "external_id", "text", "near_cluster", "signature__hashvalues"
            )
            for pk, ext, text, cluster, data in rows:
                sig = signature_from_bytes(data) if data is not None else signature(text)
                name = cluster or ext or problem_id(text)
                self._db[pk] = _Stored(pk, ext, text, name, not cluster, sig)

    # Matching ------------------------------------------------------------------------------

    def matches(self, text: str, sig: MinHash) -> list[Match]:
        """The verified near-duplicates of `text` (its band keys looked up first), the one an
        import reports first (`report_of`): exact, then by key, as NearIndex.candidates."""
        keys = band_keys(sig, self.limit)
        exact = exact_key(text)
        found: list[Match] = []
        seen_db: set[int] = set()
        seen_mem: set[str] = set()
        for k in keys:
            for pk in self._db_keys.get(k, ()):
                if pk in seen_db or pk not in self._db:
                    continue
                seen_db.add(pk)
                one = self._db[pk]
                if (score := sig.jaccard(one.sig)) >= self.limit:
                    found.append(
                        Match(
                            node=("db", one.cluster),
                            key=one.ext or f"pk:{pk}",
                            text=one.text,
                            exact=exact_key(one.text) == exact,
                            existing=True,
                            order=pk,
                            same=score == 1.0 and _same(sig, one.sig),
                        )
                    )
                    if one.single:
                        self._singles[one.cluster] = pk
            for key in self._mem_keys.get(k, ()):
                if key in seen_mem:
                    continue
                seen_mem.add(key)
                other, shown, reportable, order = self._mem[key]
                if (score := sig.jaccard(other)) >= self.limit:
                    found.append(
                        Match(
                            node=("new", key),
                            key=key,
                            text=shown,
                            exact=self._mem_exact.get(exact) == key,
                            existing=False,
                            order=order,
                            reportable=reportable,
                            same=score == 1.0 and _same(sig, other),
                        )
                    )
        return found

    # Adding a new problem ------------------------------------------------------------------

    def add(
        self, key: str, text: str, sig: MinHash, matches: list[Match], *, reportable: bool
    ) -> None:
        """`key`, a new problem to be imported, joins its matches' clusters. `reportable`:
        later problems of the import report it as what they near-duplicate (the screen's
        index: a kept near-duplicate is not, as before)."""
        self._mem[key] = (sig, text, reportable, len(self._mem))
        if reportable:
            self._mem_exact.setdefault(exact_key(text), key)
        node = ("new", key)
        self._parent[node] = node
        for one in matches:
            self._union(node, one.node)
        if any(one.same for one in matches):
            self._bands[key] = []  # it would find exactly what its twin finds
            return
        stored = []
        for k in band_keys(sig, self.limit):
            held = self._mem_keys[k]
            if len(self._db_keys.get(k, ())) + len(held) < KEY_MAX:
                held.append(key)
                stored.append(k)
        self._bands[key] = stored

    def signature_of(self, key: str) -> MinHash:
        return self._mem[key][0]

    def _root(self, node: tuple[str, str]) -> tuple[str, str]:
        self._parent.setdefault(node, node)
        while self._parent[node] != node:
            self._parent[node] = self._parent[self._parent[node]]
            node = self._parent[node]
        return node

    def _union(self, a: tuple[str, str], b: tuple[str, str]) -> None:
        ra, rb = self._root(a), self._root(b)
        if ra != rb:
            self._parent[max(ra, rb)] = min(ra, rb)

    # Writing -------------------------------------------------------------------------------

    def store(self, pks: dict[str, int], signed: set[str] | None = None) -> None:
        """Write the added problems' signatures (but those in `signed`, which have theirs),
        band keys and clusters. `pks`: each added problem's id (those absent were not
        written: skipped, or already in the project)."""
        signed = signed or set()
        sigs = [
            ProblemSignature(problem_id=pks[key], hashvalues=signature_bytes(self._mem[key][0]))
            for key in self._mem
            if key in pks and key not in signed
        ]
        for part in chunks(sigs, STORE_BATCH):
            ProblemSignature.objects.bulk_create(part)
        bands = [
            ProblemBand(project=self.project, problem_id=pks[key], band=band, hash=value)
            for key, keys in self._bands.items()
            if key in pks
            for band, value in keys
        ]
        for part in chunks(bands, STORE_BATCH):
            ProblemBand.objects.bulk_create(part)
        self._store_clusters(pks)

    def _store_clusters(self, pks: dict[str, int]) -> None:
        groups: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
        for node in list(self._parent):
            groups[self._root(node)].append(node)
        relabel: dict[str, list[int]] = defaultdict(list)  # cluster name → problems to label
        for nodes in groups.values():
            new = sorted(key for kind, key in nodes if kind == "new" and key in pks)
            if not new or len(nodes) < 2:
                continue
            names = sorted({key for kind, key in nodes if kind == "db"})
            target = self._target(names) if names else new[0]
            for name in names:
                if name == target and name not in self._singles:
                    continue
                if name in self._singles:
                    relabel[target].append(self._singles[name])
                else:  # the smaller cluster: its members take the larger one's name
                    Problem.objects.filter(project=self.project, near_cluster=name).update(
                        near_cluster=target
                    )
            relabel[target].extend(pks[key] for key in new)
        for name, ids in relabel.items():
            for part in chunks(sorted(ids), lookup_size()):
                Problem.objects.filter(pk__in=part).update(near_cluster=name)

    def _target(self, names: list[str]) -> str:
        """The largest cluster's name (fewest relabelled); a tie goes to the smaller name."""

        def size(name: str) -> int:
            if name in self._singles:
                return 1
            return Problem.objects.filter(project=self.project, near_cluster=name).count()

        return min(names, key=lambda name: (-size(name), name))


def _same(a: MinHash | LeanMinHash, b: MinHash | LeanMinHash) -> bool:
    return bool(np.array_equal(a.hashvalues, b.hashvalues))


def report_of(matches: list[Match]) -> Match | None:
    """The near-duplicate an import reports: an exact copy first (the project's, oldest
    first, then the import's), else the smallest key, as near_dups.NearIndex.match."""
    shown = [one for one in matches if one.reportable]
    exact = [one for one in shown if one.exact]
    if exact:
        return min(exact, key=lambda one: (not one.existing, one.order))
    return min(shown, key=lambda one: one.key) if shown else None
