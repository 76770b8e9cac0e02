"""Imports into the catalogue and the lists: the Django side of ``armydata``'s parsers."""
