"""Backfill of near-duplicate keys and clusters (near_keys.py) for a project's problems: for
problems imported before they were stored, or after NEAR_DUP_THRESHOLD changed (the band
layout follows the threshold). `manage.py near_dup_keys` runs it for every project; an import
into a project that has no keys of the current layout runs it first (near_dups.py).

`near_keys_rebuild` clears the project's band keys and clusters, then keys its problems in id
order, BATCH at a time, each batch as an import batch is: one lookup of its band keys among
the problems keyed before it, its near-duplicates verified, its clusters merged, and its
keys written. Signatures are read where stored, else computed and stored. Each batch is a
transaction under the project's row lock (as an import takes), so it waits for an import in
progress and imports wait for it one batch at a time; an import between two batches checks
against the problems keyed so far. Running it again starts over: it is idempotent.
"""

from django.db import transaction

from labeling.importers.ids import problem_id
from labeling.models import Problem, ProblemBand, Project
from labeling.rules.near_dups import signature, signature_from_bytes

from .near_keys import NearKeys

BATCH = 2000  # problems per transaction
CLEAR_BATCH = 20_000  # rows deleted or relabelled per statement


@transaction.atomic
def _clear_step(project: Project) -> int:
    Project.objects.select_for_update(no_key=True).filter(pk=project.pk).first()
    band_ids = list(
        ProblemBand.objects.filter(project=project).values_list("pk", flat=True)[:CLEAR_BATCH]
    )
    ProblemBand.objects.filter(pk__in=band_ids).delete()
    clustered = list(
        Problem.objects.filter(project=project)
        .exclude(near_cluster="")
        .values_list("pk", flat=True)[:CLEAR_BATCH]
    )
    Problem.objects.filter(pk__in=clustered).update(near_cluster="")
    return len(band_ids) + len(clustered)


@transaction.atomic
def _key_batch(project: Project, after: int) -> tuple[int, int]:
    """Key the project's next BATCH problems after id `after`; (how many, the last id)."""
    Project.objects.select_for_update(no_key=True).filter(pk=project.pk).first()
    rows = list(
        Problem.objects.filter(project=project, pk__gt=after)
        .order_by("pk")
        .values_list("pk", "external_id", "text", "signature__hashvalues")[:BATCH]
    )
    if not rows:
        return 0, after
    keys = NearKeys(project=project)
    sigs = {
        pk: signature_from_bytes(data) if data is not None else signature(text)
        for pk, _, text, data in rows
    }
    keys.lookup(sigs.values())
    pks: dict[str, int] = {}
    signed: set[str] = set()
    for pk, ext, text, data in rows:
        key = ext or problem_id(text)
        if key in pks:  # two problems without an id and with the same text
            key = f"pk:{pk}"
        keys.add(key, text, sigs[pk], keys.matches(text, sigs[pk]), reportable=True)
        pks[key] = pk
        if data is not None:
            signed.add(key)
    keys.store(pks, signed=signed)
    return len(rows), rows[-1][0]


def near_keys_rebuild(*, project: Project) -> int:
    """Rebuild the project's band keys and clusters; returns how many problems were keyed."""
    while _clear_step(project):
        pass
    done, after = 0, 0
    while True:
        n, after = _key_batch(project, after)
        if not n:
            return done
        done += n
