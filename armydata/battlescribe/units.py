"""One catalogue to an army: its units found, priced at each quality, sized and classified."""

from __future__ import annotations

import re
from dataclasses import replace

from armydata.classify import Classification, classify, is_setting
from armydata.model import QUALITIES, ImportedArmy, ImportedUnit, ImportReport
from armydata.qualities import QUALITY_WORD_RE, quality_of
from armydata.unit_kinds import first_int

from .document import _Document
from .links import _Resolver
from .options import _UnitOptions
from .profile_kinds import _profile_kinds, _type_text_vehicle
from .selection import (
    _Ctx,
    _find_selection,
    _Priced,
    _round,
    _Unit,
    _UnitTooComplex,
    _walk,
    _weapon_lines,
    _weapons_of,
)
from .tree import _is_weapon_node, _Node, _Profile, _static_hidden

_SELECTOR_RE = re.compile(r"th(?:r)?ea?t(?:re|er)\s+selector", re.IGNORECASE)
_NOT_A_UNIT_RE = re.compile(r"theat(?:re|er)|utility|army special rules|points? adjust", re.IGNORECASE)


class _ArmyParser(_UnitOptions):
    def __init__(self, catalogue: _Document, resolver: _Resolver, report: ImportReport):
        self.catalogue = catalogue
        self.resolver = resolver
        self.points = resolver.points
        self.report = report

    def category_names(self, *nodes: _Node | None) -> list[str]:
        primary: list[str] = []
        others: list[str] = []
        for node in nodes:
            if node is None:
                continue
            for category, is_primary in node.categories:
                name = self.resolver.categories.get(category, "")
                if name:
                    (primary if is_primary else others).append(name)
        return [*primary, *others]

    def parse(self, roots: list[_Node], national_rules: list[str]) -> ImportedArmy:
        units: list[ImportedUnit] = []
        selectors: list[str] = []
        seen: dict[str, int] = {}  # source id -> index in units
        for root in roots:
            categories = self.category_names(root)
            if _SELECTOR_RE.search(root.name):
                selectors.extend(n for n in _selectable_names(root) if n not in selectors)
                continue
            if is_setting(root.name, *categories):
                # Every roster takes it once: a setting, not a unit (no order die, no points, no slot).
                self.report.skip(f"{root.name} ({root.id})", "roster setting, not a unit")
                continue
            if categories and _NOT_A_UNIT_RE.search(categories[0]):
                self.report.skip(f"{root.name} ({root.id})", f"utility entry ({categories[0]}), not a unit")
                continue
            for unit_node, wrapper in self._units_in(root):
                unit = self._unit(unit_node, wrapper)
                if unit is None:
                    continue
                # The links that reach the unit: a roster may name it by any of them.
                reached = unit_node.ids | (wrapper.ids if wrapper is not None else frozenset())
                aliases = sorted(reached - {unit.source_id})
                if unit.source_id in seen:
                    known = units[seen[unit.source_id]]
                    if known.slot != unit.slot:
                        self.report.warn(
                            f"{self.catalogue.name}: {unit.name!r} is offered in several slots "
                            f"({known.slot}, {unit.slot}); imported once"
                        )
                    merged = list(dict.fromkeys([*known.source_aliases, *aliases]))
                    units[seen[unit.source_id]] = replace(known, source_aliases=merged)
                    continue
                seen[unit.source_id] = len(units)
                units.append(replace(unit, source_aliases=aliases))
        return ImportedArmy(
            source_id=self.catalogue.id,
            name=self.catalogue.name,
            national_rules=national_rules,
            units=units,
            theatre_selectors=selectors,
            revision=self.catalogue.root.get("revision", ""),
        )

    def _units_in(self, root: _Node) -> list[tuple[_Node, _Node | None]]:
        if root.type == "unit":
            return [(root, None)]
        nested: list[_Node] = []

        def walk(node: _Node) -> None:
            for child in node.children:
                if child.kind == "group":
                    walk(child)
                elif child.type == "unit":
                    nested.append(child)

        walk(root)
        if not nested:
            return [(root, None)]
        return [(unit, root) for unit in nested]

    def _unit(self, node: _Node, wrapper: _Node | None) -> ImportedUnit | None:
        label = f"{node.name} ({node.id})"
        try:
            unit = _Unit(node, wrapper, points=self.points, categories=self.resolver.categories)
            priced = self._price(unit)
            if not priced.base:
                self.report.skip(label, "no quality of this unit can be selected")
                return None
            result = self._assemble(unit, priced, wrapper)
        except _UnitTooComplex:
            self.report.skip(label, "too large to price (its entries expand past the importer's limits)")
            return None
        except RecursionError:
            self.report.skip(label, "its entries nest too deeply to evaluate")
            return None
        for note in unit.notes:
            self.report.warn(f"{self.catalogue.name}: {node.name}: {note}")
        return result

    def _fallback_quality(self, unit: _Unit) -> str:
        match = QUALITY_WORD_RE.search(unit.node.name)
        if match:
            return match.group(1).lower()
        root, _ = unit.configure("regular", {})
        for selection in _walk(root):
            if selection.is_model or selection.node is unit.node:
                match = QUALITY_WORD_RE.search(selection.node.name)
                if match:
                    return match.group(1).lower()
            for profile in selection.node.profiles:
                quality = quality_of(profile.name)
                if quality and not profile.is_weapon:
                    return quality
        unit.note("no quality found in the source; priced as Regular")
        return "regular"

    def _price(self, unit: _Unit) -> _Priced:
        qualities = [q for q in QUALITIES if q in unit.qualities]
        if not unit.quality_groups:
            fallback = self._fallback_quality(unit)
            unit.qualities[fallback] = None
            qualities = [fallback]
        priced = _Priced(base={}, per_model={}, per_model_nodes={}, base_models=0, max_models=0, trees={})
        models_seen: set[int] = set()
        max_seen: set[int | None] = set()
        for quality in qualities:
            root, ctx = unit.configure(quality, {})
            priced.trees[quality] = (root, ctx)
            total = unit.cost(root, ctx)
            if total < 0:
                unit.note(f"base cost at {quality} comes out negative ({total:g}); set to 0")
                total = 0
            if total != int(total):
                unit.note(f"base cost at {quality} is fractional ({total:g}); rounded")
            priced.base[quality] = _round(total)
            base_models = ctx.model_entries or unit.fallback_models
            if not ctx.model_entries:
                # No entry stands for these models (an officer alone, a gun's crew): a roster
                # lists only the models added to them.
                priced.implicit_models = unit.fallback_models
            models_seen.add(base_models)
            node, extra, capacity = self._per_model(unit, quality, ctx, total)
            if node is not None:
                if extra < 0:
                    unit.note(f"an extra model at {quality} comes out negative ({extra:g}); set to 0")
                    extra = 0
                priced.per_model[quality] = _round(extra)
                priced.per_model_nodes[quality] = node
            max_seen.add(None if capacity is None else base_models + capacity)
        priced.base_models = min(models_seen) if models_seen else 1
        if len(models_seen) > 1:
            unit.note(f"the number of models differs between qualities ({sorted(models_seen)}); kept the smallest")
        if None in max_seen:
            priced.max_models = None
        else:
            priced.max_models = max(m for m in max_seen if m is not None) if max_seen else priced.base_models
        # A cap on the unit's models as a whole ("at most 6 men", childId "model") bounds what the
        # model entries would allow one by one.
        caps = [
            int(c.value)
            for n in (unit.node, unit.wrapper)
            if n is not None
            for c in n.constraints
            if c.type == "max" and c.child_id == "model" and c.field == "selections" and not c.percent and c.value >= 0
        ]
        if caps:
            cap = max(min(caps), priced.base_models)
            priced.max_models = cap if priced.max_models is None else min(priced.max_models, cap)
        return priced

    def _model_slots(self, unit: _Unit) -> list[tuple[_Node, _Node | None]]:
        slots: list[tuple[_Node, _Node | None]] = []

        def walk(node: _Node, group: _Node | None) -> None:
            for child in node.children:
                if child.kind == "group":
                    if id(child) not in unit.quality_groups:
                        walk(child, child)
                elif child.type != "unit" and unit.is_model(child, group):
                    slots.append((child, group))

        walk(unit.node, None)
        return slots

    def _per_model(self, unit: _Unit, quality: str, ctx: _Ctx, base: float) -> tuple[_Node | None, float, int | None]:
        """The cheapest model that can still be added, its price, and the room left for models.

        Room is None when nothing in the source caps the number of models.
        """
        best: tuple[float, int, _Node] | None = None
        group_rooms: dict[int, int | None] = {}
        for index, (node, group) in enumerate(self._model_slots(unit)):
            if unit.hidden(node, ctx) or (group is not None and unit.hidden(group, ctx)):
                continue
            if unit.option_man(node, group, ctx):
                continue
            maximum = unit.limit(node, "max", ctx)
            room = None if maximum is None else max(0, maximum - ctx.counts.get(node.id, 0))
            group_room = None
            if group is not None:
                if id(group) not in group_rooms:
                    group_max = unit.limit(group, "max", ctx)
                    taken = sum(ctx.counts.get(c.id, 0) for c in group.children if c.kind == "entry")
                    group_rooms[id(group)] = None if group_max is None else max(0, group_max - taken)
                group_room = group_rooms[id(group)]
            if room == 0 or group_room == 0:
                continue
            grown, grown_ctx = unit.configure(quality, {node: 1})
            if _find_selection(grown, node) is None:
                continue
            candidate = (unit.cost(grown, grown_ctx) - base, index, node)
            if best is None or candidate[:2] < best[:2]:
                best = candidate
        capacity = self._room(unit, ctx)
        if best is None:
            return None, 0.0, capacity
        return best[2], best[0], capacity

    def _room(self, unit: _Unit, ctx: _Ctx) -> int | None:
        """The room left for models: each model entry's, bounded by every group it sits in.

        A group's maximum counts the entries of the groups inside it too (the NKVD squad's troops
        group of at most 10 holds its dog handlers' group), so nested rooms add up under it. None
        when nothing in the source caps the number of models.
        """

        def taken(group: _Node) -> int:
            return sum(
                ctx.counts.get(child.id, 0) if child.kind == "entry" else taken(child) for child in group.children
            )

        def walk(container: _Node, group: _Node | None) -> int | None:
            room: int | None = 0
            for child in container.children:
                if child.kind == "group":
                    if id(child) not in unit.quality_groups and not unit.hidden(child, ctx):
                        room = _add(room, walk(child, child))
                elif child.type != "unit" and unit.is_model(child, group):
                    if unit.hidden(child, ctx) or unit.option_man(child, group, ctx):
                        continue
                    maximum = unit.limit(child, "max", ctx)
                    room = _add(room, None if maximum is None else max(0, maximum - ctx.counts.get(child.id, 0)))
            if group is not None and (maximum := unit.limit(group, "max", ctx)) is not None:
                room = _smaller(room, max(0, maximum - taken(group)))
            return room

        return walk(unit.node, None)

    def _assemble(self, unit: _Unit, priced: _Priced, wrapper: _Node | None) -> ImportedUnit:
        node = unit.node
        weapons: list[str] = []
        rules: list[str] = []
        vehicle = None
        quality_nodes = {id(n) for n in unit.qualities.values() if n is not None}
        profiles = [*node.profiles, *(wrapper.profiles if wrapper is not None else ())]
        for root, _ in priced.trees.values():
            for name in _weapons_of(root):
                if name not in weapons:
                    weapons.append(name)
            for selection in _walk(root):
                for profile in selection.node.profiles:
                    if vehicle is None and profile.is_vehicle:
                        vehicle = profile
                    if not profile.is_weapon and profile not in profiles:
                        profiles.append(profile)
                if id(selection.node) in quality_nodes or _is_weapon_node(selection.node):
                    continue
                for rule in selection.node.rules:
                    if rule and rule not in rules:
                        rules.append(rule)
        if wrapper is not None:
            for rule in wrapper.rules:
                if rule and rule not in rules:
                    rules.append(rule)
            if vehicle is None:
                vehicle = next((p for p in wrapper.profiles if p.is_vehicle), None)
        damage_text = vehicle.get("damage value", "damage", "dv") if vehicle else None
        transport_text = vehicle.get("transport", "transport capacity") if vehicle else None
        if damage_text is None or transport_text is None:
            # Data with no vehicle profile writes the card in the unit's type text:
            # "6+ (soft-skin) Transport Up to 3 men".
            typed_damage, typed_transport = _type_text_vehicle(profiles)
            damage_text = damage_text or typed_damage
            transport_text = transport_text or (typed_transport if damage_text else None)
        kind, type_source = self._classify(unit, wrapper, damage_text, transport_text, profiles, rules)
        hidden = _static_hidden(node) or (wrapper is not None and _static_hidden(wrapper))
        if hidden:
            self.report.warn(f"{self.catalogue.name}: {node.name!r} is hidden in the source; imported as hidden")
        options, option_groups = self._options(unit, priced, weapons)
        # Vehicles keep each weapon on its own mount, read from the first offered quality's tree
        # (the default kit does not change with quality).
        lines = _weapon_lines(next(iter(priced.trees.values()))[0]) if damage_text else []
        return ImportedUnit(
            source_id=node.id,
            name=node.name,
            unit_type=kind.unit_type,
            slot=kind.slot,
            base_cost=dict(priced.base),
            per_model_cost=dict(priced.per_model),
            base_models=priced.base_models,
            min_models=priced.base_models,
            max_models=priced.max_models,
            implicit_models=priced.implicit_models,
            weapons=weapons,
            options=options,
            special_rules=rules,
            damage_value=first_int(damage_text, r"(\d+)\s*\+") if damage_text else None,
            transport_capacity=first_int(transport_text, r"(\d+)") if transport_text else None,
            officer_rank=kind.officer_rank,
            hidden=hidden,
            weapon_lines=lines,
            categories=list(dict.fromkeys(c for n in (node, wrapper) if n is not None for c, _ in n.categories)),
            type_source=type_source,
            option_groups=option_groups,
        )

    def _classify(
        self,
        unit: _Unit,
        wrapper: _Node | None,
        damage: str | None,
        transport: str | None,
        profiles: list[_Profile],
        rules: list[str],
    ) -> tuple[Classification, str]:
        """The unit's kind and what told it: its categories, else its profiles, else its name.

        Data without type categories keeps the kind in its profiles: a damage value or a profile
        type naming a vehicle, a gun's crew and shield naming artillery.
        """
        display = f"{unit.node.name} {wrapper.name if wrapper else ''}".strip()
        categories = self.category_names(unit.node, wrapper)
        if not classify(categories, "").guessed:
            return classify(categories, display, damage=damage, transport=transport), "categories"
        hints = _profile_kinds(profiles, rules)
        if damage is not None or hints:
            result = classify(hints, display, damage=damage, transport=transport)
            label = result.unit_type.replace("_", " ")
            unit.note(f"no category says what kind of unit this is; its profiles say {label} (guessed)")
            return result, "profiles"
        result = classify(categories, display)
        if result.guessed:
            unit.note("no category says what kind of unit this is; imported as infantry")
        else:
            label = result.unit_type.replace("_", " ")
            unit.note(f"no category or profile says what kind of unit this is; its name says {label} (guessed)")
        return result, "name"


def _selectable_names(root: _Node) -> list[str]:
    names: list[str] = []

    def walk(node: _Node) -> None:
        for child in node.children:
            if child.kind == "group":
                walk(child)
            elif child.name and child.name not in names:
                names.append(child.name)

    walk(root)
    return names


def _add(first: int | None, second: int | None) -> int | None:
    """Add two room counts where None means unbounded."""
    return None if first is None or second is None else first + second


def _smaller(first: int | None, second: int | None) -> int | None:
    if first is None:
        return second
    if second is None:
        return first
    return min(first, second)
