"""Notebook 07, the benchmark: rulelab's learners against the peers on public tables."""
