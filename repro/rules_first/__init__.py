"""Notebook 06, paper 5's rules-first classifiers: synthetic data and the sentiment corpora."""
