"""What the labeling and review pages read of an embodied episode (pure, no queries)."""

# Step.metadata keys of an embodied step the pages show beside `kind`
# (labeling.selectors.labeling_page).
EMBODIED_STEP_KEYS = ("success", "preconditions", "effects", "timestamp")
EPISODE_KEYS = ("goal", "initial_state")


def episode(metadata: dict | None) -> dict | None:
    """An embodied problem's goal and initial state (predicate lists), or None."""
    found = {k: (metadata or {})[k] for k in EPISODE_KEYS if k in (metadata or {})}
    return found or None
