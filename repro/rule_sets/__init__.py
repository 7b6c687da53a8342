"""Notebook 02, paper 1's rule sets: 1Rule, RuSC and RuB against Table 1 and Table 2."""
