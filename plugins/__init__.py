"""The built-in rule sets, installed under the import name ``cardcore_plugins``.

Each sub-package is one game plugin, loaded through the ``cardcore.games`` and
``cardcore.house_rules`` entry points exactly as a third-party package would be.
"""
