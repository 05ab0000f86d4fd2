"""Built-in synthdeid plugins; each registers through the same hooks a third party uses.

The plugin manager's functions are re-exported here for convenience
(``from synthdeid.plugins import registry``); they live in ``synthdeid.plugin_system.manager``.
"""

from synthdeid.plugin_system.manager import (
    DEFAULT_PLUGINS,
    KINDS,
    LOAD_ENV,
    all_entries,
    get_plugin_manager,
    registry,
)

__all__ = ["DEFAULT_PLUGINS", "KINDS", "LOAD_ENV", "all_entries", "get_plugin_manager", "registry"]
