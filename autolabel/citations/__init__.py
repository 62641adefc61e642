"""Evidence-cited steps checked against their sources: quotes found in the cited document
(quotes.py), numbers stated from a cited table matched to its cells (numbers.py). Pure
Python, no Django; the `citation` engine (autolabel/engines/citation.py) applies them."""
