"""Notebook 00, the tour: the iris rule of the Matlab quantile grids and the explorer."""
