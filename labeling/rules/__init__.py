"""Domain rules that several rooms read (models, queue, selectors, exports).

overlap.py          a solution's effective overlap (project's + extra_overlap) as a number,
                    an SQL expression and the open / complete conditions
machine_sources.py  every source a suggestion may carry: built-in and installed plug-ins
near_dups.py        near-duplicate problems: MinHash LSH over word shingles (pure)
"""
