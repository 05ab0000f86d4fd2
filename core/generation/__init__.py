"""Generation: the language-model text, training helpers (DP, distributed), the shared decoding
loop and its settings, tag-safe masks, the postprocessing of raw notes, and the shared
transformers code of the ``gpt2`` and ``causal_lm`` generators (``hf_lm``)."""
