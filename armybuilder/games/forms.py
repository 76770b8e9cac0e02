"""Forms of the game pages: starting a game, and the one form every table action posts."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from armybuilder.games.services import MAX_STAND_IN_DICE
from rules.game.editions import ORDERS

KINDS = (
    "draw",
    "record",
    "order",
    "snap",
    "pins",
    "casualties",
    "damage",
    "remove",
    "end_turn",
    "end_game",
    "send_back",
    "support",
)
TOKEN = re.compile(r"(?:/s/)?([A-Za-z0-9_-]{16,32})/?(?:[?#].*)?$")


class NewGameForm(forms.Form):
    my_name = forms.CharField(label=_("Your name"), max_length=60)
    opponent = forms.ChoiceField(label=_("Opponent"), widget=forms.RadioSelect)
    opponent_list = forms.TypedChoiceField(label=_("One of my lists"), required=False, coerce=int, empty_value=None)
    opponent_link = forms.CharField(label=_("Share link of the opponent's list"), required=False, max_length=300)
    opponent_name = forms.CharField(label=_("Opponent's name"), required=False, max_length=60)
    opponent_dice = forms.IntegerField(
        label=_("Opponent's order dice"), required=False, min_value=1, max_value=MAX_STAND_IN_DICE
    )
    scenario = forms.CharField(label=_("Scenario"), required=False, max_length=100)

    def __init__(self, *args: Any, my_lists: list[tuple[int, str]], **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["opponent"].choices = [
            ("list", _("One of my lists")),
            ("link", _("A list's share link")),
            ("dice", _("Just a name and a number of order dice")),
        ]
        self.fields["opponent_list"].choices = [("", "—"), *my_lists]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind = data.get("opponent")
        if kind == "list" and not data.get("opponent_list"):
            self.add_error("opponent_list", _("Choose one of your lists."))
        if kind == "link":
            match = TOKEN.search((data.get("opponent_link") or "").strip())
            if not match:
                self.add_error("opponent_link", _("Paste the link of a shared list (…/s/…/)."))
            else:
                data["opponent_token"] = match.group(1)
        if kind == "dice":
            if not data.get("opponent_name"):
                self.add_error("opponent_name", _("Give the opponent a name."))
            if not data.get("opponent_dice") and "opponent_dice" not in self.errors:
                self.add_error("opponent_dice", _("How many order dice does the opponent have?"))
        return data


# The fields that carry a die's value (the bombardment's ``bd1-<unit>``/``bd2-<unit>`` and the Down
# pins' D3s too): a value given was typed by the player, unless the phone says it rolled it.
DICE_FIELDS = ("die1", "die2", "reroll1", "reroll2", "fubar", "rally", "vengeance_die", "nco_die", "sdie1", "sdie2")


class ActionForm(forms.Form):
    """Every button of the table posts here; ``action`` says which, the rest is what it needs."""

    action = forms.ChoiceField(choices=[(k, k) for k in KINDS])
    # The id the phone made for this action (game.js): a send retried or replayed is applied once.
    action_id = forms.UUIDField(required=False)
    # The dice fields the phone rolled itself (offline, names apart by spaces): the others it carries
    # were typed by the player, and the log says so.
    phone_rolled = forms.CharField(required=False, max_length=2000)
    rev = forms.IntegerField(required=False, min_value=0)
    unit = forms.CharField(required=False, max_length=40)
    side = forms.ChoiceField(required=False, choices=[("a", "a"), ("b", "b")])
    order = forms.ChoiceField(required=False, choices=[(o, o) for o in ORDERS])
    officer = forms.CharField(required=False, max_length=40)
    die1 = forms.IntegerField(required=False, min_value=1, max_value=6)
    die2 = forms.IntegerField(required=False, min_value=1, max_value=6)
    # Not One Step Back!: within 6" of a commissar, a failed test is taken again (typed, or rolled).
    commissar = forms.BooleanField(required=False)
    reroll1 = forms.IntegerField(required=False, min_value=1, max_value=6)
    reroll2 = forms.IntegerField(required=False, min_value=1, max_value=6)
    # The FUBAR chart's and a Rally's D6, and the D3 each unit staying Down sheds at the end of the turn
    # ("key:n key:n"): rolled by the players (a phone that played offline did and showed them), or
    # left out for Muster to roll.
    fubar = forms.IntegerField(required=False, min_value=1, max_value=6)
    rally = forms.IntegerField(required=False, min_value=1, max_value=6)
    down_pins = forms.CharField(required=False, max_length=2000)
    tiger_fear = forms.BooleanField(required=False)  # Tiger Fear: an enemy Tiger within 18" in sight
    banzai = forms.BooleanField(required=False)  # Banzai Charge: Running at the closest visible enemy
    # Vengeance: an enemy within 12" of the pinned British unit; its die typed, or none to let Muster roll.
    vengeance = forms.BooleanField(required=False)
    vengeance_die = forms.IntegerField(required=False, min_value=1, max_value=6)
    # The squad's NCO among the casualties; Initiative Training's die (2nd edition) typed, or rolled.
    nco = forms.BooleanField(required=False)
    nco_die = forms.IntegerField(required=False, min_value=1, max_value=6)
    # Air Superiority's air strike roll, Massed Batteries' barrage radius: typed dice, or none to let Muster roll.
    # A preparatory bombardment ("bombard": the enemy units on the table in ``bunit``, typed dice in
    # ``bd1-<unit>``/``bd2-<unit>``), and the die kept per unit with Bombardment ("bombard-keep": ``keep-<unit>``).
    roll = forms.ChoiceField(
        required=False,
        choices=[
            ("air", "air"),
            ("radius", "radius"),
            ("bombard", "bombard"),
            ("bombard-keep", "bombard-keep"),
            ("defender", "defender"),
            ("emplacements", "emplacements"),
        ],
    )
    # Defensive Strategy's "who defends?" recorded as the scenario decided it (instead of rolled).
    defends = forms.ChoiceField(required=False, choices=[("yes", "yes"), ("no", "no")])
    bunit = forms.MultipleChoiceField(required=False)
    sdie1 = forms.IntegerField(required=False, min_value=1, max_value=6)
    sdie2 = forms.IntegerField(required=False, min_value=1, max_value=6)
    delta = forms.IntegerField(required=False, min_value=-20, max_value=20)
    result = forms.ChoiceField(
        required=False,
        choices=[
            ("immobilised", ""),
            ("on_fire", ""),
            ("extinguished", ""),
            ("knocked_out", ""),
            ("a", ""),
            ("b", ""),
            ("draw", ""),
        ],
    )
    scenario = forms.CharField(required=False, max_length=100)
    release = forms.MultipleChoiceField(required=False)
    force = forms.BooleanField(required=False)
    # The turn an end of turn was tapped in (a phone offline says it): the same end of turn recorded
    # on both phones of a two-phone game ends one turn, not two.
    turn = forms.IntegerField(required=False, min_value=1, max_value=99)

    def __init__(self, *args: Any, unit_keys: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["release"].choices = [(k, k) for k in unit_keys]
        self.fields["bunit"].choices = [(k, k) for k in unit_keys]
        self.unit_keys = unit_keys
        for key in unit_keys:
            for name in (f"bd1-{key}", f"bd2-{key}", f"keep-{key}"):
                self.fields[name] = forms.IntegerField(required=False, min_value=1, max_value=6)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        dice = (data.get("die1"), data.get("die2"))
        if (dice[0] is None) != (dice[1] is None):
            raise forms.ValidationError(_("Type both dice of the order test, or neither to let Muster roll."))
        data["dice"] = dice if dice[0] is not None else None
        reroll = (data.get("reroll1"), data.get("reroll2"))
        if (reroll[0] is None) != (reroll[1] is None):
            raise forms.ValidationError(_("Type both dice of the re-roll, or neither to let Muster roll."))
        data["reroll"] = reroll if reroll[0] is not None else None
        data["down_pins"] = self._down_pins(data.get("down_pins") or "")
        typed = [d for d in (data.get("sdie1"), data.get("sdie2")) if d is not None]
        data["support_dice"] = typed or None
        if data.get("action") == "support" and not data.get("roll"):
            raise forms.ValidationError(_("Say which roll: the air strike or the barrage's radius."))
        # The bombardment's typed dice, per unit on the table (none typed: Muster rolls them all).
        units = list(data.get("bunit") or ())
        typed_units = {
            key: [d for d in (data.get(f"bd1-{key}"), data.get(f"bd2-{key}")) if d is not None] for key in units
        }
        data["bombard_units"] = units
        data["bombard_dice"] = typed_units if any(typed_units.values()) else None
        data["bombard_kept"] = {
            key: data[f"keep-{key}"] for key in self.unit_keys if data.get(f"keep-{key}") is not None
        }
        data["typed_dice"] = self._typed_dice(data)
        return data

    def _typed_dice(self, data: dict[str, Any]) -> bool:
        """Whether the player typed any of the action's dice (rather than Muster or the phone rolling them)."""
        rolled_here = set((data.get("phone_rolled") or "").split())
        names = [*DICE_FIELDS, *(f"bd{i}-{key}" for key in self.unit_keys for i in (1, 2))]
        given = {name for name in names if data.get(name) is not None}
        if data.get("down_pins"):
            given.add("down_pins")
        return bool(given - rolled_here)

    def _down_pins(self, raw: str) -> dict[str, int]:
        """``key:n`` pairs, each a unit of the game and a D3 (1 to 3)."""
        found: dict[str, int] = {}
        units = {key for key, _label in self.fields["release"].choices}
        for pair in raw.split():
            key, _sep, value = pair.partition(":")
            if key not in units or value not in ("1", "2", "3"):
                raise forms.ValidationError(_("Pins lost for staying Down: each unit's D3 is 1, 2 or 3."))
            found[key] = int(value)
        return found
