"""Exports: snapshots built by a worker, their files on disk, pushes to the Hugging Face Hub.

snapshots.py  create (options validated), build (rows streamed into a file), delete
files.py      the build's temporary directory, the stored file, leftovers removed
hub.py        Hub pushes as jobs (HubPush rows)
"""
