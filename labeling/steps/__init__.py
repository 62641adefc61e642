"""The shape of a solution's steps: how text becomes steps, and what the pages show of them.

splitting.py  one text cut into steps by a StepSplit rule; a `<think>` block's steps marked
sentences.py  the `sentence` rule's scan (abbreviations, decimals, math and code spans)
patterns.py   users' regular expressions (a project's step_split_regex), linear time
uses.py       which earlier steps a step uses, among several people's marks (pure)
graphs.py     a graph problem's graph, drawn by the pages and written in words by exports
payload.py    the labeling page's steps with their machine suggestions (one statement)
"""
