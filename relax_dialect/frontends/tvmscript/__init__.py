"""TVMScript interop: read TVMScript Relax modules into the dialect and print
the dialect as TVMScript."""

from .frontend import parse_tvmscript
from .printer import print_tvmscript
from .spelling import CONSTANTS

__all__ = ["CONSTANTS", "parse_tvmscript", "print_tvmscript"]
