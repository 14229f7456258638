"""TVMScript interop: read TVMScript Relax modules into the dialect and print
the dialect as TVMScript."""

from .frontend import parse_tvmscript

__all__ = ["parse_tvmscript"]
