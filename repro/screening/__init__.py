"""Notebook 04, paper 3's screening tests: the columns they remove and the time they save."""
