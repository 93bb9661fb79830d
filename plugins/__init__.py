"""The built-in rule sets, installed under the import name ``cardcore_plugins``.

Each sub-package is one game plugin, found as a folder (``cardcore.plugins.builtins``):
the package registers its game and its ``house_rules`` module, if any, the
game's house rules, through the same hooks a third-party package's entry
points reach.
"""
