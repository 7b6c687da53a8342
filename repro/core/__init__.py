"""The shared machinery of the reproductions: the cached runner and its keys by meaning,
runs and their output folders, parameters, verdict rules, quotes, plotting, figures, the
report and the pipeline. It imports no paper's package.
"""
