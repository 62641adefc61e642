"""Stored images and fetching URLs safely.

images.py     problems' and steps' images in Django's storage, download URLs
url_guard.py  which URLs the server may fetch, and fetching them (SSRF guard)
"""
