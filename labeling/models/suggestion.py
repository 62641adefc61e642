from django.db import models

from .data import Step


class SuggestionSource(models.TextChoices):
    SYMBOLIC = "symbolic", "Symbolic check"
    ROLLOUT = "rollout", "Monte-Carlo rollouts"
    JUDGE = "judge", "LLM judge"
    PRM = "prm", "Trained PRM"
    IMPORT = "import", "Imported dataset"
    CONSENSUS = "consensus", "Consensus"
    CODE = "code", "Code execution"
    AGENT = "agent", "Agent trajectory checks"
    GRAPH = "graph", "Graph checker (networkx)"
    SUBGOAL = "subgoal", "Subgoal log check"
    CITATION = "citation", "Citation check"
    PREDICTION = "prediction", "Uploaded predictions"


class Suggestion(models.Model):
    """A pre-filled label for a step from a machine source; humans confirm or correct it."""

    step = models.ForeignKey(Step, on_delete=models.CASCADE, related_name="suggestions")
    # The built-in sources are SuggestionSource; an engine plug-in (entry point group
    # ``steplab.engines``) writes under its own name, so the column takes any short slug and
    # services validate it against the engines installed.
    source = models.CharField(max_length=40)
    agent = models.CharField(max_length=200, help_text="Model, checker or dataset id.")
    value = models.SmallIntegerField(null=True, blank=True, help_text="Suggested −1, 0 or +1.")
    score = models.FloatField(null=True, blank=True)
    evidence = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["step_id", "source", "agent"]
        constraints = [
            models.UniqueConstraint(
                fields=["step", "source", "agent"], name="suggestion_unique_source_agent"
            )
        ]

    def __str__(self) -> str:
        return f"{self.source}:{self.agent} {self.value} on {self.step}"
