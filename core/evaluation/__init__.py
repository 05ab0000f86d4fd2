"""Evaluation: utility experiments (which documents a tagger trains on), learning curves, the
utility report and the metrics math (entity/token P/R/F1, significance, curves)."""
