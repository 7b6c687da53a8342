"""Notebook 01, paper 1's exact recovery: phase transitions, noise and thresholds."""
