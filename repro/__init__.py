"""repro: the reproductions of the five papers and the benchmark, built on :mod:`rulelab`.

One module per paper (its experiments, claims and tables), the peers' adapters and the
benchmark, one cached runner keyed by parameters and code, plotting, the report and the
notebook pipeline (``python -m repro.pipeline``). The notebooks import it; the library
never does. Its extra dependencies are the ``repro`` extra (``pip install ".[repro]"``).
"""
