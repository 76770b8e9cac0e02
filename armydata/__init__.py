"""Parsers for community army-list data (BattleScribe and Barracks).

This package turns uploaded files into the plain dataclasses of ``model``; it never imports
Django, so a separate writer maps the result onto the catalogue models.
"""

from __future__ import annotations
