"""The study spec: params.yaml as typed, frozen sections, read and checked once (``load_study``)."""

from .load import load_study, validate
from .study import GENERATION_OVERRIDES, Study

__all__ = ["GENERATION_OVERRIDES", "Study", "load_study", "validate"]
