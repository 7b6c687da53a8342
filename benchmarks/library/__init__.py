"""Benchmarks of the library's algorithms (rulelab)."""
