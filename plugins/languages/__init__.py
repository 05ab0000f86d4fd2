"""Built-in language packs."""
