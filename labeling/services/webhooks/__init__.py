"""Webhooks: a project's endpoints hear its events (imports, runs, exports, submits, reviews).

- events.py: the event types and `webhook_event_emit`, which the services call in the
  transaction that made the event;
- endpoints.py: endpoint management (create, edit, delete, rotate the secret, send a test);
- delivery.py: one signed POST (Standard Webhooks), its retries and the sweep;
- what the API lists: labeling/selectors/webhooks.py.
"""
