"""Passes of the Relax dialect, one per file."""
