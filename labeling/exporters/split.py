"""Train / validation / test by a hash of the problem: a problem is in exactly one split.

The key is the problem's external id (a dataset id or a hash of its normalized text, the
same in every database), hashed with the policy's seed; the first 64 bits of the sha256,
as a fraction of 2**64, fall into [0, train), [train, train + validation) or the rest.
"""

import hashlib

from .options import SplitMode, SplitPolicy


def split_of(problem_key: str, policy: SplitPolicy) -> str | None:
    if policy.mode == SplitMode.NONE:
        return None
    digest = hashlib.sha256(f"{policy.seed}\x00{problem_key}".encode()).digest()
    u = int.from_bytes(digest[:8], "big") / 2**64
    if u < policy.train:
        return "train"
    if u < policy.train + policy.validation or policy.test == 0:
        return "validation" if policy.validation > 0 else "train"
    return "test"
