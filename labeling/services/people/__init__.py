"""People: accounts, invites, members, passwords, and their tokens.

accounts.py    accounts made by admins, invite links, members' roles, passwords
tokens.py      API tokens: create, revoke, note a use, prune
hub_tokens.py  a user's own Hugging Face token
"""
