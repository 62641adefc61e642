"""What the labeling and review pages read of an evidence-cited problem (pure, no queries)."""

# Step.metadata keys of an evidence-cited step the pages show (labeling.selectors.labeling_page).
EVIDENCE_STEP_KEYS = ("citations",)
SOURCE_KEYS = ("documents", "tables")


def evidence_sources(metadata: dict | None) -> dict:
    """An evidence-cited problem's documents and tables, as imported ([] when none)."""
    metadata = metadata or {}
    return {key: metadata.get(key) or [] for key in SOURCE_KEYS}
