"""Where a corpus comes from: the configured corpus (a user's files in a supported format) or the
embedded demo corpus (``sources.demo``), a data source, not part of the runtime."""
