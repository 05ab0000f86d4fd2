"""The command line's tools: ``synthdeid check``, presets, and the language-pack scaffold
(``synthdeid new-plugin``) with its templates."""
