"""Projects: settings and members, the explorer's bulk actions, metrics, deletion.

edit.py      create, update, remove a member
explorer.py  the solutions explorer's bulk actions (send to review, requeue, gold)
metrics.py   project metrics: a snapshot at the project's metrics version, else live for
             small projects and a snapshot by age for large ones
metrics_version.py  the version every write the metrics read moves
delete.py    a project marked deleted at once, its rows purged in batches
"""
