"""Forms for managing lists (create, rename, import) and for signing up."""

from __future__ import annotations

from django import forms
from django.urls import reverse_lazy
from django.utils.translation import gettext_lazy as _

from armybuilder.catalogue.models import Army
from armybuilder.lists.models import ArmyList
from armybuilder.reference.models import Edition

IMPORT_MAX_BYTES = 1024 * 1024


class ArmyListForm(forms.ModelForm):
    """A new list. The army select offers the chosen edition's armies, or all of them grouped by edition.

    The grouped fallback is what a browser without JavaScript gets until the edition is chosen;
    ``clean`` rejects an army from another edition either way.
    """

    # Only editions with an army to build from are offered (1st edition has the rules reference
    # and the odds, no army lists); ``editions_without_armies`` names the others beside the field.
    edition = forms.ModelChoiceField(
        queryset=Edition.objects.filter(armies__hidden=False).distinct().order_by("number"),
        to_field_name="slug",
        empty_label=_("Choose an edition"),
        label=_("Edition"),
        error_messages={
            "required": _("Choose an edition."),
            "invalid_choice": _("Lists can only be built for an edition with armies; choose another edition."),
        },
        widget=forms.Select(
            attrs={
                "hx-get": reverse_lazy("ab-list-new"),
                "hx-target": "#army-field",
                "hx-swap": "outerHTML",
                "hx-trigger": "change",
                # The army select is replaced by the edition's armies: no choosing in the old one
                # meanwhile, or the choice would be lost when the new one arrives.
                "hx-disabled-elt": "#id_army",
            }
        ),
    )
    army = forms.ModelChoiceField(
        queryset=Army.objects.none(),
        label=_("Army"),
        error_messages={"required": _("Choose an army."), "invalid_choice": _("Choose an army from the list.")},
    )

    class Meta:
        model = ArmyList
        fields = ["edition", "army", "name", "points_limit", "force_org", "max_order_dice", "max_platoons"]
        labels = {
            "name": _("Name"),
            "points_limit": _("Points limit"),
            "force_org": _("Force organisation"),
            "max_order_dice": _("Maximum order dice"),
            "max_platoons": _("Maximum platoons"),
        }
        help_texts = {
            "points_limit": _("Between 1 and 10,000."),
            "max_order_dice": _("Tournament limit; leave empty for none."),
            "max_platoons": _("Tournament limit; leave empty for none."),
        }
        widgets = {
            "points_limit": forms.NumberInput(attrs={"min": 1, "max": 10_000, "step": 1}),
            "max_order_dice": forms.NumberInput(attrs={"min": 1, "max": 200}),
            "max_platoons": forms.NumberInput(attrs={"min": 1, "max": 50}),
        }

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs.setdefault("autocomplete", "off")
        # The edition in the active language ("1re édition"), as the army groups below name it.
        self.fields["edition"].label_from_instance = lambda edition: edition.display_name
        edition = self._chosen_edition()
        armies = Army.objects.get_queryset().visible().select_related("edition").order_by("edition__number", "name")
        army_field = self.fields["army"]
        # Any visible army is accepted here and ``clean`` names the mismatch; only the choices shown are filtered.
        army_field.queryset = armies
        shown = armies.filter(edition=edition) if edition is not None else armies
        groups: dict[str, list[tuple[int, str]]] = {}
        for army in shown:
            groups.setdefault(army.edition.display_name, []).append((army.pk, army.display_name))
        if edition is not None:
            army_field.choices = [("", _("Choose an army")), *groups.get(edition.display_name, [])]
        else:
            army_field.choices = [("", _("Choose an army")), *groups.items()]
        self.edition_chosen = edition is not None
        self.editions_without_armies = [e.display_name for e in Edition.objects.exclude(armies__hidden=False)]
        self.fields["name"].error_messages["required"] = _("Give the list a name.")
        self.fields["points_limit"].error_messages["required"] = _("Enter a points limit.")

    def _chosen_edition(self) -> Edition | None:
        raw = self.data.get("edition") if self.is_bound else self.initial.get("edition")
        if isinstance(raw, Edition):
            return raw
        if not raw:
            return None
        return Edition.objects.filter(slug=str(raw)).first()

    def clean_name(self) -> str:
        return self.cleaned_data["name"].strip()

    def clean(self) -> dict:
        cleaned = super().clean()
        edition, army = cleaned.get("edition"), cleaned.get("army")
        if edition and army and army.edition_id != edition.pk:
            self.add_error("army", _("Choose an army from %(edition)s.") % {"edition": edition.display_name})
        return cleaned


class RenameForm(forms.Form):
    name = forms.CharField(label=_("New name"), max_length=100, strip=True)


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Upload a file"), required=False, help_text=_("A .json file exported from Muster, at most 1 MB.")
    )
    text = forms.CharField(
        label=_("Or paste the JSON"),
        required=False,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "mono-full"}),
    )

    def clean(self) -> dict:
        cleaned = super().clean()
        upload, text = cleaned.get("file"), cleaned.get("text")
        if upload and text:
            raise forms.ValidationError(_("Upload a file or paste the JSON, not both."))
        if upload:
            if upload.size > IMPORT_MAX_BYTES:
                self.add_error("file", _("The file is larger than 1 MB."))
                return cleaned
            try:
                cleaned["json"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", _("The file is not UTF-8 text; export it again from Muster."))
        elif text:
            if len(text.encode("utf-8")) > IMPORT_MAX_BYTES:
                self.add_error("text", _("The pasted text is larger than 1 MB."))
                return cleaned
            cleaned["json"] = text
        elif not self.errors:
            raise forms.ValidationError(_("Upload a file or paste the JSON of a list."))
        return cleaned
