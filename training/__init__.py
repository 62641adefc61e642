"""PRM training, evaluation and scoring. Imports no Django: its input is an exported file."""
