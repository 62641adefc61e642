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

Memory: the import's new problems are held compactly (near_table.NewProblems: under 1 KB
a problem, where Python objects took about 5.7 KB), the project's looked-up keys and candidates
for one batch only, and union-find nodes only for problems that matched something.

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
from django.db.models import Model, Q, QuerySet

from labeling.importers.ids import problem_id
from labeling.models import Problem, ProblemBand, ProblemSignature, Project
from labeling.pg.arrays import int_array, text_array
from labeling.pg.opaque import OPAQUE_ID, external_ids_found, opaque_id
from labeling.rules.near_dups import (
    SIGNATURE_DTYPE,
    band_keys,
    exact_key,
    signature,
    signature_from_bytes,
    threshold,
)

from .near_table import KeySet, NewProblems, exact_hash

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
    text: str | None  # None for a new problem's (not kept: read back after the import)
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
    # The project's problems under the current batch's band keys, and those problems: read by
    # `lookup` for one batch, dropped at the next.
    _db_keys: dict[Key, list[int]] = field(default_factory=dict)
    _db: dict[int, _Stored] = field(default_factory=dict)
    _empty: KeySet = field(default_factory=KeySet)  # keys looked up, no stored problem
    _new: NewProblems = field(default_factory=NewProblems)  # the import's new problems
    _held: dict[Key, list[int]] = field(default_factory=dict)  # the batch's keys: new holders
    _parent: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    _singles: dict[str, int] = field(default_factory=dict)  # a one-problem cluster's pk

    # Reading the project's candidates ------------------------------------------------------

    def lookup(self, sigs: Iterable[MinHash]) -> None:
        """Fetch the project's problems that share a band key with any of `sigs`, and the
        import's new problems that hold one of them. What the last batch fetched is dropped
        (a key found again is asked again), but for the keys found under no problem, kept as
        10 bytes each (`KeySet`): keeping every key looked up with its list (millions at a
        million solutions) cost memory in N."""
        wanted = {k for sig in sigs for k in band_keys(sig, self.limit)}
        self._held = self._new.holders(wanted)
        self._db_keys, self._db = {}, {}
        keys = sorted(wanted)
        asked = [k for k, no in zip(keys, self._empty.contains(keys), strict=True) if not no]
        if not asked:
            return
        found: dict[Key, list[int]] = {k: [] for k in asked}
        for part in chunks(asked, lookup_size()):
            by_band: dict[int, list[int]] = defaultdict(list)
            for band, value in part:
                by_band[band].append(value)
            for band, value, pk in _band_rows(self.project.pk, by_band):
                found[(band, value)].append(pk)
        self._db_keys = found
        # The project's stored keys do not change during an import (its own are stored at
        # the end), so a key with no problem is not asked for again.
        self._empty.add([k for k, pks in found.items() if not pks])
        missing = sorted({pk for pks in found.values() for pk in pks if pk not in self._db})
        for part in chunks(missing, lookup_size()):
            for pk, ext, text, cluster, data in _candidate_rows(part):
                sig = signature_from_bytes(data) if data is not None else signature(text)
                name = cluster or ext or problem_id(text)
                self._db[pk] = _Stored(pk, ext, text, name, not cluster, sig)

    # Matching ------------------------------------------------------------------------------

    def matches(self, text: str, sig: MinHash) -> list[Match]:
        """The verified near-duplicates of `text` (its band keys looked up first), the one an
        import reports first (`report_of`): exact, then by key, as NearIndex.candidates."""
        keys = band_keys(sig, self.limit)
        exact = exact_key(text)
        exact64 = exact_hash(exact)
        values = sig.hashvalues
        found: list[Match] = []
        seen_db: set[int] = set()
        seen_new: set[int] = set()
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
                            same=score == 1.0 and _same(values, one.sig.hashvalues),
                        )
                    )
                    if one.single:
                        self._singles[one.cluster] = pk
            for i in self._holders(k):
                if i in seen_new:
                    continue
                seen_new.add(i)
                other = self._new.signature(i)
                score = float(np.count_nonzero(other == values)) / len(values)
                if score >= self.limit:
                    reportable = self._new.reportable(i)
                    found.append(
                        Match(
                            node=("new", self._new.keys[i]),
                            key=self._new.keys[i],
                            text=None,
                            exact=reportable and self._new.exact(i) == exact64,
                            existing=False,
                            order=i,
                            reportable=reportable,
                            same=score == 1.0 and _same(values, other),
                        )
                    )
        return found

    def _holders(self, k: Key) -> list[int]:
        """The new problems holding `k` (looked up with the batch, else now)."""
        if k not in self._held:
            self._held.update(self._new.holders([k]))
        return self._held[k]

    # Adding a new problem ------------------------------------------------------------------

    def add(
        self, key: str, text: str, sig: MinHash, matches: list[Match], *, reportable: bool
    ) -> None:
        """`key`, a new problem to be imported, joins its matches' clusters. `reportable`:
        later problems of the import report it as what they near-duplicate (the screen's
        index: a kept near-duplicate is not, as before)."""
        i = self._new.add(key, sig.hashvalues, exact_hash(exact_key(text)), reportable=reportable)
        if matches:  # a problem that matched nothing is a cluster of its own: no node
            node = ("new", key)
            self._parent[node] = node
            for one in matches:
                self._union(node, one.node)
        if any(one.same for one in matches):
            return  # it would find exactly what its twin finds: no keys
        for k in band_keys(sig, self.limit):
            held = self._holders(k)
            if len(self._db_keys.get(k, ())) + len(held) < KEY_MAX:
                held.append(i)
                self._new.hold(k, i)

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
        new = self._new
        pk_of = np.fromiter((pks.get(key, 0) for key in new.keys), dtype=np.int64, count=len(new))
        copy = connection.vendor == "postgresql"
        for start in range(0, len(new), STORE_BATCH):
            rows = [
                (int(pk_of[i]), np.asarray(new.signature(i), dtype=SIGNATURE_DTYPE).tobytes())
                for i in range(start, min(start + STORE_BATCH, len(new)))
                if pk_of[i] and new.keys[i] not in signed
            ]
            if copy:
                copy_text(
                    ProblemSignature,
                    ("problem_id", "hashvalues"),
                    "".join(f"{pk}\t\\\\x{value.hex()}\n" for pk, value in rows),
                )
            else:
                ProblemSignature.objects.bulk_create(
                    ProblemSignature(problem_id=pk, hashvalues=value) for pk, value in rows
                )
        project = self.project.pk
        for bands, hashes, held_by in new.held_keys(STORE_BATCH):
            keys = zip(bands.tolist(), hashes.tolist(), pk_of[held_by].tolist(), strict=True)
            if copy:
                # Four integers a row, as COPY's text: bulk_create's per-value compilation
                # was most of this store's CPU, serial at the import's end (issue 26).
                copy_text(
                    ProblemBand,
                    ("project_id", "problem_id", "band", "hash"),
                    "".join(f"{project}\t{pk}\t{b}\t{h}\n" for b, h, pk in keys if pk),
                )
            else:
                ProblemBand.objects.bulk_create(
                    ProblemBand(project_id=project, problem_id=pk, band=band, hash=value)
                    for band, value, pk in keys
                    if pk
                )
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
                    self._members(name).update(near_cluster=target)
            relabel[target].extend(pks[key] for key in new)
        if connection.vendor == "postgresql":
            # One statement for every cluster: an UPDATE per cluster, its ids compiled one by
            # one, was most of this store's CPU where a file brings many clusters.
            pairs = sorted((pk, name) for name, ids in relabel.items() for pk in ids)
            with connection.cursor() as cursor:
                for part in chunks(pairs, lookup_size()):
                    cursor.execute(
                        f"UPDATE {Problem._meta.db_table} p SET near_cluster = v.name"
                        " FROM unnest(%s::bigint[], %s::text[]) AS v(id, name) WHERE p.id = v.id",
                        [int_array(pk for pk, _ in part), text_array(name for _, name in part)],
                    )
            return
        for name, ids in relabel.items():
            for part in chunks(sorted(ids), lookup_size()):
                Problem.objects.filter(pk__in=part).update(near_cluster=name)

    def _members(self, name: str) -> QuerySet[Problem]:
        """The project's problems of the cluster `name` (by problem_near_cluster_idx, the
        project an InitPlan parameter: labeling.pg.opaque)."""
        return Problem.objects.filter(project_id=opaque_id(self.project.pk), near_cluster=name)

    def _target(self, names: list[str]) -> str:
        """The largest cluster's name (fewest relabelled); a tie goes to the smaller name."""

        def size(name: str) -> int:
            if name in self._singles:
                return 1
            return self._members(name).count()

        return min(names, key=lambda name: (-size(name), name))


def _band_rows(project: int, by_band: dict[int, list[int]]) -> Iterable[tuple[int, int, int]]:
    """(band, hash, problem id) of the project's stored keys among `by_band`'s hashes. On
    PostgreSQL each band's hashes go as one array (`= ANY`, what the planner makes of `IN`
    anyway): an `IN` list's values were compiled and quoted one by one, per batch. Each key is
    one probe of problem_band_key (a lateral join, the project an InitPlan parameter:
    labeling.pg.opaque): as one OR of the bands, a new project's keys were planned as a walk
    of all the project's keys with the bands as a filter, per batch."""
    if connection.vendor != "postgresql":
        where = Q()
        for band, values in by_band.items():
            where |= Q(band=band, hash__in=values)
        rows = ProblemBand.objects.filter(project_id=project).filter(where)
        return rows.values_list("band", "hash", "problem_id")
    pairs = [(band, value) for band in sorted(by_band) for value in by_band[band]]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT v.band, v.hash, t.problem_id"
            " FROM unnest(%s::smallint[], %s::bigint[]) AS v(band, hash)"
            f" JOIN LATERAL (SELECT problem_id FROM {ProblemBand._meta.db_table} t"
            f" WHERE t.project_id = {OPAQUE_ID} AND t.band = v.band AND t.hash = v.hash"
            " OFFSET 0) t ON true",  # OFFSET 0: kept a probe per key, not flattened into a join
            [int_array(b for b, _ in pairs), int_array(h for _, h in pairs), project],
        )
        return cursor.fetchall()


def _candidate_rows(pks: list[int]) -> Iterable[tuple[int, str, str, str, bytes | None]]:
    """(id, external id, text, near_cluster, stored signature or None) of the problems `pks`;
    on PostgreSQL with the ids as one array."""
    if connection.vendor != "postgresql":
        return Problem.objects.filter(pk__in=pks).values_list(
            "pk", "external_id", "text", "near_cluster", "signature__hashvalues"
        )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT p.id, p.external_id, p.text, p.near_cluster, s.hashvalues"
            f" FROM {Problem._meta.db_table} p LEFT JOIN {ProblemSignature._meta.db_table} s"
            " ON s.problem_id = p.id WHERE p.id = ANY(%s::bigint[]) ORDER BY p.id",
            [int_array(pks)],
        )
        return cursor.fetchall()


def problem_pks(project: Project, keys: list[str]) -> Iterable[tuple[str, int]]:
    """(external id, id) of the project's problems among `keys` (at most lookup_size()); on
    PostgreSQL with the keys as one array literal, not an `IN` list compiled value by value,
    each key one probe of the unique index (labeling.pg.opaque.external_ids_found)."""
    if connection.vendor != "postgresql":
        return Problem.objects.filter(project=project, external_id__in=keys).values_list(
            "external_id", "pk"
        )
    return external_ids_found(Problem._meta.db_table, project.pk, text_array(keys))


def copy_text(model: type[Model], columns: tuple[str, ...], text: str) -> None:
    """PostgreSQL: COPY `text` (rows in COPY's text format, in `columns` order; the primary
    key left to its default) into `model`'s table, on this thread's connection."""
    if not text:
        return
    qn = connection.ops.quote_name
    names = ", ".join(qn(model._meta.get_field(c).column) for c in columns)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {qn(model._meta.db_table)} ({names}) FROM STDIN") as copy,
    ):
        copy.write(text)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.array_equal(a, b))


def report_of(matches: list[Match]) -> Match | None:
    """The near-duplicate an import reports: an exact copy first (the project's, oldest
    first, then the import's), else the smallest key, as near_dups.NearIndex.match."""
    shown = [one for one in matches if one.reportable]
    exact = [one for one in shown if one.exact]
    if exact:
        return min(exact, key=lambda one: (not one.existing, one.order))
    return min(shown, key=lambda one: one.key) if shown else None
