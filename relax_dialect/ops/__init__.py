"""Relax operations, one file per operator family."""
