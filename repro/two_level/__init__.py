"""Notebook 03, paper 2's two-level rules: BCD, AM and SC against OCRL, C5.0 and Table 1."""
