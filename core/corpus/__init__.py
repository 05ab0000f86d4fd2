"""Records and formats: the standoff record, the canonical tags and label mappings, the inline-tag
codec, corpus formats (BRAT, CoNLL, i2b2, ...), splits, statistics, stage accounting and export."""
