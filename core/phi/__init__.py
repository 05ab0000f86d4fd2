"""Finding and replacing PHI: annotators applied to a corpus, pseudonymization with a language pack's
surrogates, fresh surrogates after generation, machine annotation and de-identification."""
