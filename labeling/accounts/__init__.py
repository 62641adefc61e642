"""Who people are: usernames they cannot mistake, sign-in, their secrets at rest.

usernames.py     NFKC + casefold + look-alike key, mixed scripts refused (pure)
auth_backend.py  sign-in with the username in any case (AUTHENTICATION_BACKENDS)
sealed.py        secrets (a Hugging Face token) encrypted under keys derived from SECRET_KEY
"""
