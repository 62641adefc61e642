"""Recompute the claim pool's stored flag (Solution.queue_open) of projects.

    manage.py queue_refresh              # every project
    manage.py queue_refresh --project 3 --project 7
    manage.py queue_refresh --project 3 --after 420000   # resume

The services keep the flag; run this after changing what it depends on (gold, assignments, the
overlap, submitted counts) past them, e.g. in the Django admin or with SQL. A solution whose flag
was left closed is not served to anyone until then. Like review_reasons_refresh, it works in
ranges of --batch solutions, each its own transaction, and prints its progress.
"""

from labeling.management.commands.review_reasons_refresh import Command as RefreshCommand
from labeling.services.queue.pool import queue_open_fill


class Command(RefreshCommand):
    help = __doc__.split("\n\n")[0]
    fill = staticmethod(queue_open_fill)
