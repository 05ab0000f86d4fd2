"""synthdeid: structure-aware synthetic clinical notes for de-identification."""

from .api import hookimpl
from .corpus.records import Document, Span
from .corpus.tags import CANONICAL_TAGS, TagSet
from .errors import InputError, SurrogateError, SynthdeidError, UnknownPluginError

__version__ = "0.1.0"

__all__ = [
    "CANONICAL_TAGS",
    "Document",
    "InputError",
    "Span",
    "SurrogateError",
    "SynthdeidError",
    "TagSet",
    "UnknownPluginError",
    "__version__",
    "hookimpl",
]
