"""Benchmarks of the reproduction's units of work (repro)."""
