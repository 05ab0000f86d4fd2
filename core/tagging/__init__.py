"""What every tagger plugin shares: tokens and BIO tags of documents, the training preamble, the
resolved config written next to a model, seeds and threads, recall-biased decoding, and reading a
model folder without running its code (``model_files``, which the generator plugins use too)."""
