from __future__ import annotations


class RulesError(Exception):
    """Base error for bad input to the rules engine; the Django edge turns it into a 400 or a form error.

    ``code`` and ``params`` (optional) name the kind of error and the values its message
    interpolates, so a front end can rebuild the sentence in another language. ``field`` names the input
    the error is about ("groups[0].band", "target.models"; None when it is about no one input); it
    defaults to ``params["field"]``, so no caller has to read it out of the message.
    """

    def __init__(
        self,
        *args: object,
        code: str = "",
        params: dict[str, object] | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(*args)
        self.code = code
        self.params = dict(params or {})
        if field is None and isinstance(self.params.get("field"), str):
            field = str(self.params["field"])
        self.field = field


class ForceOrgError(RulesError):
    """A force-organisation rule cannot be evaluated (for example an unknown selector)."""
