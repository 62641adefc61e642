from django.db import models

from .data import Problem
from .project import Project


class ProblemSignature(models.Model):
    """A problem's MinHash signature (labeling/rules/near_dups.py), computed at import so that
    near-duplicate checks of later imports read it instead of recomputing every problem's."""

    problem = models.OneToOneField(
        Problem, primary_key=True, on_delete=models.CASCADE, related_name="signature"
    )
    # The 128 permutations' minimum hash values, little-endian (datasketch's dtype and scheme).
    hashvalues = models.BinaryField()

    def __str__(self) -> str:
        return f"Signature of problem {self.problem_id}"


class ProblemBand(models.Model):
    """One LSH band key of a problem's signature (near_dups.band_keys): problems that share a
    key are near-duplicate candidates. An import looks up its new problems' keys with one
    indexed query per batch (services/imports/near_keys.py) instead of loading the project.

    Not every problem has its keys: one whose signature equals an earlier problem's adds none
    (it would find what that one finds), and a key held by KEY_MAX problems takes no more."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="+", db_index=False)
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="bands")
    band = models.PositiveSmallIntegerField()  # width * BAND_STRIDE + position
    hash = models.BigIntegerField()

    class Meta:
        indexes = [
            # Covering: the lookup reads the index alone.
            models.Index(
                fields=["project", "band", "hash"], include=["problem"], name="problem_band_key"
            )
        ]

    def __str__(self) -> str:
        return f"Band {self.band} of problem {self.problem_id}"
