"""Auto-labeling engines; the registry lives in autolabel.registry."""
