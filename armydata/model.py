"""The neutral result of an import: plain dataclasses, independent of the source format.

Costs are keyed by quality (``"inexperienced"``, ``"regular"``, ``"veteran"``) and hold only
the qualities the source offers, so a missing key means "not available at that quality".
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The one list of qualities (rules/), re-exported for the importers; and the one limit adjustment:
# an imported force limit carries the very adjustment the rules apply (``rules.army.model``).
from rules.army.model import QUALITIES as QUALITIES
from rules.army.model import LimitAdjustment as ImportedLimitAdjustment


@dataclass(frozen=True)
class ImportedWeapon:
    source_id: str
    name: str
    range: str
    shots: str
    pen: str
    special_rules: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ImportedRule:
    source_id: str
    name: str
    description: str = ""


@dataclass(frozen=True)
class ImportedOption:
    """One upgrade a unit may buy.

    ``per_model`` options cost ``cost[q]`` for every model in the unit. ``all_models`` ones
    (anti-tank grenades, Fanatics) are taken by the whole unit or not at all: one choice, priced
    per model. ``group`` names a set
    of mutually exclusive choices (for instance the alternatives to a default weapon); it is
    empty for free-standing options. ``excludes`` names the unit's other options this one cannot
    be taken with ("Anti-tank grenades (if no Panzerfaust taken)" excludes "Panzerfaust"); the
    exclusion holds both ways.
    """

    source_id: str
    name: str
    per_model: bool
    cost: dict[str, int]
    max_count: int | None = None
    grants_weapon: str | None = None
    replaces_weapon: str | None = None
    group: str = ""
    all_models: bool = False
    excludes: list[str] = field(default_factory=list)
    # A team inside the unit (an LMG or flamethrower team in a squad), or a soldier the option
    # adds (France's pistol-only soldier): each one taken adds this many models, which count as
    # the unit's models everywhere (order dice, half strength, casualties, cards).
    adds_models: int = 0
    # The men it adds take places within the unit's largest size (``max_models``) rather than
    # come on top: a team the data puts inside the capped group of the squad's men.
    within_size: bool = False
    # The option makes the whole unit cost nothing (a national rule's free unit); at most
    # ``free_per_list`` units of the list may be free through this option (None: no limit).
    free_unit: bool = False
    free_per_list: int | None = None
    # ``cost`` names exactly the qualities the option is offered at (the source unlocks it per
    # quality); the others are not offered, rather than priced like the nearest quality.
    prices_exact: bool = False
    # A per-man choice (``per_model``) that at most this many men may take ("up to 3 SMGs").
    per_man_limit: int | None = None


@dataclass(frozen=True)
class ImportedOptionGroup:
    """Options of one unit that share a limit: between ``minimum`` and ``maximum`` choices in all.

    A count counts: three per-man SMG swaps are three choices. ``maximum`` None sets no shared
    cap beyond each option's own; ``per_model`` makes ``maximum`` a cap per model of the unit
    ("each man may swap his rifle for one of ..." is ``maximum=1, per_model=True``). A group
    with ``minimum=1, maximum=1`` is a required choice, such as a tank's variant. Options name
    their group by ``ImportedOption.group``; a group no ``ImportedOptionGroup`` describes keeps
    the older meaning: its options exclude each other (at most one of them taken).
    """

    key: str
    label: str
    minimum: int = 0
    maximum: int | None = None
    per_model: bool = False


@dataclass(frozen=True)
class ImportedWeaponLine:
    """One weapon as a vehicle carries it: on which mount, how many, firing into which arc.

    ``mount`` is "turret", "coaxial", "hull", "pintle", "platform", "casemate", "sponson" or ""
    when the source does not say; ``arc`` is "360", "front", "rear", "left", "right" or "".
    """

    weapon: str
    mount: str = ""
    count: int = 1
    arc: str = ""


@dataclass(frozen=True)
class ImportedUnit:
    """A unit as the source prices it.

    ``base_cost[q]`` buys ``base_models`` models; each further model up to ``max_models``
    costs ``per_model_cost[q]``. ``max_models`` is None when the source sets no upper bound.
    Models that options add (``ImportedOption.adds_models``) are not counted in ``max_models``,
    but for an option ``within_size``, whose men take places within it.
    A quality the unit is offered at only through a required choice (a tank whose variant
    carries the prices) has a ``base_cost`` of 0 there and the prices on the options, each
    option's ``cost`` holding only the qualities that variant is offered at.
    """

    source_id: str
    name: str
    unit_type: str
    slot: str
    base_cost: dict[str, int]
    per_model_cost: dict[str, int]
    base_models: int
    min_models: int
    max_models: int | None
    weapons: list[str] = field(default_factory=list)
    options: list[ImportedOption] = field(default_factory=list)
    special_rules: list[str] = field(default_factory=list)
    damage_value: int | None = None
    transport_capacity: int | None = None
    officer_rank: str | None = None
    hidden: bool = False
    weapon_lines: list[ImportedWeaponLine] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)  # the source's category ids, for force limits
    implicit_models: int = 0  # models of the base size no entry of the source stands for
    # The armament as the source lists it, mounts included ("1 turret-mounted ... with co-axial MMG").
    weapons_text: str = ""
    # Shared limits of its options (``ImportedOption.group`` names one by ``key``).
    option_groups: list[ImportedOptionGroup] = field(default_factory=list)
    # How the unit's type was found: "categories", "profiles" or "name" (reported as a guess).
    type_source: str = "categories"
    # Other ids a roster may name the unit by: the links (a force entry's, the catalogue's) that reach it.
    source_aliases: list[str] = field(default_factory=list)
    # Order dice the unit gives (one for almost every unit; some sources list attachments at 0).
    order_dice: int = 1
    # The war periods the source offers the unit in: letters of "EML" (early, mid, late); "" unknown.
    periods: str = ""
    # Why the source keeps the unit out of ordinary play ("campaign", "community", "experimental"...).
    flags: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ImportedForceLimit:
    """Between ``minimum`` and ``maximum`` units of the data's category ``category``.

    ``slots`` are the Muster slots the category stands for (from the shared classifier), used
    for units that carry no categories (built-in ones).
    """

    category: str
    label: str
    slots: tuple[str, ...]
    minimum: int = 0
    maximum: int | None = None
    adjustments: tuple[ImportedLimitAdjustment, ...] = ()


@dataclass(frozen=True)
class ImportedForce:
    """A platoon kind the game system defines (a BattleScribe force entry), mapped to Muster's ``kind``."""

    source_id: str
    name: str
    kind: str
    limits: tuple[ImportedForceLimit, ...] = ()


@dataclass(frozen=True)
class ImportedArmy:
    source_id: str
    name: str
    national_rules: list[str] = field(default_factory=list)
    units: list[ImportedUnit] = field(default_factory=list)
    theatre_selectors: list[str] = field(default_factory=list)
    # The catalogue's revision, written into a roster exported from a list of this army.
    revision: str = ""
    # Rule name -> the source's own text of it (national rules, and unit rules the data defines),
    # plain and bounded: shown quoted and credited to the source, never as Muster's paraphrase.
    rule_texts: dict[str, str] = field(default_factory=dict)


@dataclass
class ImportReport:
    """What the parser read, and everything it could not carry over.

    ``skipped`` holds ``(entry, reason)`` pairs for source entries that produced nothing;
    ``warnings`` holds remarks on entries that were imported with something left out.
    """

    entries_read: int = 0
    units: int = 0
    weapons: int = 0
    rules: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def skip(self, entry: str, reason: str) -> None:
        item = (entry, reason)
        if item not in self.skipped:
            self.skipped.append(item)

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)


@dataclass(frozen=True)
class ImportedCatalogue:
    system_name: str
    edition: str
    armies: list[ImportedArmy]
    weapons: list[ImportedWeapon]
    rules: list[ImportedRule]
    report: ImportReport
    forces: list[ImportedForce] = field(default_factory=list)
    # What a roster (.ros) names its game system by: the id, revision and points cost type id of
    # the .gst, so a list of an imported army can be written back as a roster its tools open.
    system_id: str = ""
    system_revision: str = ""
    points_type_id: str = ""
    # Who the data says wrote it (a module's "credit"), plain and bounded; empty when it does not say.
    credit: str = ""
