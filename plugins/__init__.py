"""Built-in synthdeid plugins; each registers through the same hooks a third party uses.

``registry`` (what synthdeid finds installed) is re-exported here for convenience
(``from synthdeid.plugins import registry``); the plugin manager lives in
``synthdeid.plugin_system.manager``.
"""

from synthdeid.toolkit import registry

__all__ = ["registry"]
