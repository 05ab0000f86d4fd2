"""What every tagger plugin shares: tokens and BIO tags of documents, the training preamble, the
resolved config written next to a model, seeds and threads, and recall-biased decoding."""
