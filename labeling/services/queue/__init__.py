"""Claiming solutions for annotators: the task queue with per-user locks.

claim.py        task_claim_next: own draft, screening, gold, then a bounded claim of the pool
take.py         a row-locked solution taken: the overlap check, the lock, a new annotation
pool.py         the claim pool's stored flag (Solution.queue_open)
assignments.py  explicit assignment of solutions to annotators, one by one or in bulk
"""
