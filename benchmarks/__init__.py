"""Benchmarks: speed measured side by side (see benchmarks/README.md)."""
