from django.db import models

from .data import Problem


class ProblemSignature(models.Model):
    """A problem's MinHash signature (labeling/near_dups.py), computed at import so that
    near-duplicate checks of later imports read it instead of recomputing every problem's."""

    problem = models.OneToOneField(
        Problem, primary_key=True, on_delete=models.CASCADE, related_name="signature"
    )
    # The 128 permutations' minimum hash values, little-endian (datasketch's dtype and scheme).
    hashvalues = models.BinaryField()

    def __str__(self) -> str:
        return f"Signature of problem {self.problem_id}"
