"""The ground floor: the game registry. Rule sets are data (``rulesets/<game>.toml``), checked against one
schema (``schema.py``) and loaded into a :class:`~games.registry.Registry` of games, formats, sections,
labels and search filters; ``cards.py`` holds the plain card and deck types the registry's filters and
pair rules read, ``errors.py`` the rule-set errors.

Pure Python: no Django, no app of ours. Every app stands on it, in the order
``games → cards → rules → decks → tournaments → seasons`` (tests/foundation/test_import_structure.py).
"""
