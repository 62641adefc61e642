"""Background jobs that survive a broker (Redis) outage.

outbox.py  the transactional outbox: a job row and its message in the caller's transaction
"""
