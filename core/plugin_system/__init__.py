"""The plugin system: the plugin manager (built-ins, then entry points), the registries of
factories, typed configs from params and lazy re-exports. The API plugins implement is ``synthdeid.api``."""
