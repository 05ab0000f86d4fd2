"""synthdeid: structure-aware synthetic clinical notes for de-identification."""

from .errors import InputError, SurrogateError, SynthdeidError, UnknownPluginError
from synthdeid.api import hookimpl
from .records import Document, Span
from .tags import CANONICAL_TAGS, TagSet

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
