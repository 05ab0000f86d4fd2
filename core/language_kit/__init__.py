"""What the built-in language packs share: tokenizer and sentence-splitter builders, name, date and
place surrogate machinery, the base surrogate class and the pack wiring. docs/language-toolkit.md
documents every class and setting (tests/test_toolkit_docs.py keeps it in step)."""
