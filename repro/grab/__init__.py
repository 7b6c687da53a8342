"""Notebook 05, paper 4's GRAB: the time to an objective, accuracy against size, Tables 1-2."""
