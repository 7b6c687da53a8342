"""The other learners as the benchmarks run them: scikit-learn-style adapters for BRCG,
RIPPER (Weka's JRip), C5.0 and the black boxes, and the files they exchange with
external programs. It imports no paper's package.
"""
