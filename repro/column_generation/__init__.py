"""Notebook 08, column generation: exact recovery, pricing, certificates and the path."""
