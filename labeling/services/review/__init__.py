"""Review: reviewers' actions, resolved labels, the stored review reasons, comments.

actions.py       accept, reject back to the annotator, adjudicate
resolutions.py   a solution's resolved label: by review, agreeing annotators, machines
reasons.py       Solution.review_reasons refreshed by the services, one solution at a time
reasons_fill.py  the stored reasons of many solutions at once, in bounded id ranges
comments.py      comment threads on a solution or one of its steps
"""
