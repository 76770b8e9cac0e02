"""Muster's game-rules engine: plain Python, no Django import.

Django (``armybuilder``) calls into this package; this package never imports Django.
"""
