from __future__ import annotations


class RulesError(Exception):
    """Base error for bad input to the rules engine; the Django edge turns it into a 400 or a form error.

    ``code`` and ``params`` (optional) name the kind of error and the values its message
    interpolates, so a front end can rebuild the sentence in another language.
    """

    def __init__(self, *args: object, code: str = "", params: dict[str, object] | None = None) -> None:
        super().__init__(*args)
        self.code = code
        self.params = dict(params or {})


class ForceOrgError(RulesError):
    """A force-organisation rule cannot be evaluated (for example an unknown selector)."""
