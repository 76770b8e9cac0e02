from __future__ import annotations


class RulesError(Exception):
    """Base error for bad input to the rules engine; the Django edge turns it into a 400 or a form error."""


class ForceOrgError(RulesError):
    """A force-organisation rule cannot be evaluated (for example an unknown selector)."""
