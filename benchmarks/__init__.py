"""Benchmarks that print figures (never assert timings)."""
