"""Projects: settings and members, the explorer's bulk actions, metrics, deletion.

edit.py      create, update, remove a member
explorer.py  the solutions explorer's bulk actions (send to review, requeue, gold)
metrics.py   project metrics: live for small projects, a snapshot for large ones
delete.py    a project marked deleted at once, its rows purged in batches
"""
