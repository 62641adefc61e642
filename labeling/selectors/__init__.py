"""Reads, by the page or client that reads them. Services write; these only read.

labeling_page.py  roles, project lists and stats, what a user may claim (the open pool,
                  gold, screening), progress, and the labeling page's task payload
guidelines.py     the guidelines text the labeling page shows
embodied.py       an embodied episode as the labeling and review pages show it (pure)
evidence.py       an evidence-cited problem's sources as the pages show them (pure)
review/           the review queue, one solution's review page, feedback
admin.py          project admins: members, import jobs, problem sources
explorer.py       the solutions explorer: filters, sorts, pages, a capped count
gold.py           gold questions and how annotators answer them
my_work.py        an annotator's own submitted and skipped work ("My work")
people.py         pending invites, the staff's user search
predictions.py    uploaded prediction sources and what they cover
tokens.py         API tokens: a user's list, one of them, the lookup by secret
webhooks.py       a project's webhook endpoints and deliveries
"""
