"""Gold questions: known labels to measure annotators against, and the pace they come at.

questions.py  mark / unmark gold, screening answers and their evaluation
pace.py       members' submitted and gold answer counts that the gold rate paces on
"""
