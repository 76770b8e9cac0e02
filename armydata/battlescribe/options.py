"""The choices inside a unit, at any depth, priced against the unit's own selections: per-man
swaps, teams that add men, whole-unit upgrades, and the limits their groups share."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, replace

from armydata.model import QUALITIES, ImportedOption, ImportedOptionGroup, ImportReport
from armydata.qualities import is_quality_group, quality_of

from .selection import (
    _CREW_RE,
    MAX_UNIT_WORK,
    _choices_group,
    _Ctx,
    _find_selection,
    _instances,
    _models_in,
    _Priced,
    _round,
    _Sel,
    _Unit,
    _walk,
    _weapons_of,
)
from .tree import _Node

# Choices per unit the importer prices; a unit with more keeps the first ones and says so.
MAX_OPTIONS = 400


@dataclass(frozen=True)
class _Candidate:
    """A choice of a unit: its group, the options it sits inside (taken with it), and whether
    each man takes it (it sits inside a model the unit holds several of)."""

    node: _Node
    group: _Node | None
    context: tuple[_Node, ...]
    prefix: str
    per_man: bool
    parent: str = ""  # the entry it sits in, to tell apart two choices of one name


def _groups_above(root: _Node, target: _Node) -> list[_Node] | None:
    """The groups between a unit and one of its entries, outermost first; None when the entry
    sits inside another entry (a choice inside an option) or is not the unit's."""

    def walk(node: _Node, path: list[_Node]) -> list[_Node] | None:
        for child in node.children:
            if child is target:
                return path
            if child.kind == "group" and (found := walk(child, [*path, child])) is not None:
                return found
        return None

    return walk(root, [])


def _distinct(chosen: list[tuple[_Candidate, ImportedOption]]) -> list[ImportedOption]:
    """Two choices of one unit from one shared entry (an SMG for the NCO, an SMG for each man) get
    the id of the link that reaches each, and the name of the model they belong to."""
    names: dict[str, int] = defaultdict(int)
    ids: dict[str, int] = defaultdict(int)
    for _, option in chosen:
        names[option.name] += 1
        ids[option.source_id] += 1
    result: list[ImportedOption] = []
    for candidate, option in chosen:
        if ids[option.source_id] > 1:
            links = sorted(candidate.node.ids - {candidate.node.id})
            if links:
                option = replace(option, source_id=links[0])
        if names[option.name] > 1 and candidate.parent:
            option = replace(option, name=f"{candidate.parent}: {option.name}")
        result.append(option)
    return result


def _is_rating_group(group: _Node) -> bool:
    entries = [c for c in group.children if c.kind == "entry"]
    qualities = [quality_of(e.name) for e in entries]
    return bool(entries) and (all(qualities) or (is_quality_group(group.name) and any(qualities)))


_TEAM_SIZE_RE = re.compile(r"\b(\d+)\s*(?:-\s*)?(?:men|man|models?|soldiers?|crew(?:men)?)\b", re.IGNORECASE)


def _team_size(node: _Node) -> int:
    """The men of a nested team with no model entries: "2 men" in its name or profiles, or its crew rule."""
    texts = [node.name, *(value for p in node.profiles for _, value in p.characteristics), *node.rules]
    for text in texts:
        match = _TEAM_SIZE_RE.search(text) or _CREW_RE.match(text)
        if match:
            return int(match.group(1))
    return 0


def _weapons_of_node(node: _Node, unit: _Unit, quality: str) -> list[str]:
    tree, _ = unit.configure(quality, {node: 1})
    selection = _find_selection(tree, node)
    return _weapons_of(selection) if selection is not None else []


class _UnitOptions:
    """The option readers of an army parser (which supplies ``report``)."""

    report: ImportReport

    def _options(
        self, unit: _Unit, priced: _Priced, base_weapons: list[str]
    ) -> tuple[list[ImportedOption], list[ImportedOptionGroup]]:
        """Every choice inside the unit, at any depth, with the limits its groups set.

        Entries that are part of the unit at every quality are walked into: their choices are
        the unit's options. A choice inside a model that the unit holds several of (or inside
        the entry that adds its men) is a per-man choice. A choice inside an option is priced
        with that option taken and named after it.
        """
        in_base: dict[int, set[str]] = defaultdict(set)
        base_counts: dict[int, int] = defaultdict(int)
        for quality, (root, _) in priced.trees.items():
            for selection in _walk(root):
                in_base[id(selection.node)].add(quality)
                base_counts[id(selection.node)] = max(base_counts[id(selection.node)], selection.count)
        per_model_ids = {id(n) for n in priced.per_model_nodes.values()}
        quality_ids = {id(n) for mapping in unit.quality_groups.values() for n in mapping.values()}
        offered = set(priced.base)
        first = next(iter(priced.trees))
        candidates: list[_Candidate] = []
        present_cache: dict[tuple[int, ...], set[int]] = {}
        left_out: list[str] = []

        def present(context: tuple[_Node, ...]) -> set[int]:
            """The entries selected with the context taken, at a quality it can be taken at."""
            key = tuple(id(c) for c in context)
            if key not in present_cache:
                present_cache[key] = set()
                for quality in priced.trees:
                    tree, _ = unit.configure(quality, dict.fromkeys(context, 1))
                    if all(_find_selection(tree, c) is not None for c in context):
                        present_cache[key] = {id(s.node) for s in _walk(tree)}
                        break
            return present_cache[key]

        def walk(
            node: _Node, group: _Node | None, context: tuple[_Node, ...], prefix: str, per_man: bool, owner: str = ""
        ) -> None:
            for child in node.children:
                if child.kind == "group":
                    # A rating group inside an option (an attached man's own quality) follows the unit's.
                    if id(child) not in unit.quality_groups and not _is_rating_group(child):
                        walk(child, child, context, prefix, per_man, owner)
                    continue
                if id(child) in quality_ids:
                    continue
                if len(candidates) + len(left_out) > MAX_OPTIONS:
                    left_out.append(f"{child.name!r} in {unit.node.name!r}")
                    continue
                if id(child) in per_model_ids:
                    # The entry that adds the unit's men: its own choices are each man's.
                    inner = context if id(child) in in_base else (*context, child)
                    walk(child, None, inner, prefix, True, child.name)
                    continue
                there = id(child) in present(context) if context else in_base.get(id(child), set()) >= offered
                if there:
                    many = base_counts.get(id(child), 1) > 1 and unit.is_model(child, group)
                    walk(child, None, context, prefix, per_man or many, child.name)
                    continue
                candidates.append(_Candidate(child, group, context, prefix, per_man, owner))
                if present((*context, child)):  # its own choices, when it can be taken at all
                    walk(child, None, (*context, child), f"{prefix}{child.name}: ", per_man, child.name)

        walk(unit.node, None, (), "", False)
        chosen: list[tuple[_Candidate, ImportedOption]] = []
        groups: dict[int, ImportedOptionGroup | None] = {}
        keys: dict[int, str] = {}
        merged: dict[tuple[object, ...], int] = {}
        for candidate in candidates:
            if unit.work > MAX_UNIT_WORK // 2:
                # Pricing stops short of the work limit, so a huge unit keeps its price and first choices.
                where = candidate.context[-1].name if candidate.context else unit.node.name
                left_out.append(f"{candidate.node.name!r} in {where!r}")
                continue
            option = self._option(unit, priced, candidate, base_weapons)
            if option is None:
                continue
            group = candidate.group
            if candidate.per_man:
                # The same swap offered to the extra man of each quality (an attendant entry per
                # rating) is one per-man choice, priced at each quality.
                same = (option.name, group.name if group else "", option.grants_weapon, option.replaces_weapon)
                if same in merged:
                    index = merged[same]
                    first, known = chosen[index]
                    both = {**option.cost, **known.cost}
                    cost = {q: both[q] for q in QUALITIES if q in both}
                    chosen[index] = (first, replace(known, cost=cost))
                    continue
                merged[same] = len(chosen)
            if group is not None:
                if id(group) not in groups:
                    groups[id(group)] = self._option_group(unit, priced, candidate, keys)
                    keys[id(group)] = self._group_key(group, keys)
                spec = groups[id(group)]
                if spec is not None or self._exclusive(unit, priced, candidate):
                    option = replace(option, group=spec.key if spec is not None else keys[id(group)])
            chosen.append((candidate, option))
        options = _distinct(chosen)
        if left_out:
            unit.note(f"{len(left_out)} choices too many or too deep to price were not imported (e.g. {left_out[0]})")
        specs = [spec for spec in groups.values() if spec is not None]
        used = {option.group for option in options}
        return options, [spec for spec in specs if spec.key in used]

    @staticmethod
    def _group_key(group: _Node, keys: dict[int, str]) -> str:
        key = group.name or group.id or "choice"
        taken = set(keys.values())
        number = 2
        while key in taken:
            key = f"{group.name or group.id} ({number})"
            number += 1
        return key

    def _group_limits(self, unit: _Unit, priced: _Priced, candidate: _Candidate) -> tuple[int, int | None, int]:
        """The group's minimum and maximum, and how many of its entries the unit already holds."""
        group = candidate.group
        assert group is not None
        quality = next(iter(priced.trees))
        if candidate.context:
            tree, ctx = unit.configure(quality, dict.fromkeys(candidate.context, 1))
        else:
            tree, ctx = priced.trees[quality]
        held = sum(s.count for s in _walk(tree) if s.group is group)
        return unit.limit(group, "min", ctx) or 0, unit.limit(group, "max", ctx), held

    def _exclusive(self, unit: _Unit, priced: _Priced, candidate: _Candidate) -> bool:
        return self._group_limits(unit, priced, candidate)[1] == 1

    def _option_group(
        self, unit: _Unit, priced: _Priced, candidate: _Candidate, keys: dict[int, str]
    ) -> ImportedOptionGroup | None:
        """The shared limit of a selection group, or None when "one of these" (or nothing) says it all."""
        group = candidate.group
        assert group is not None
        key = self._group_key(group, keys)
        if id(group) in unit.variant_groups:
            return ImportedOptionGroup(key=key, label=group.name, minimum=1, maximum=1)
        if any(unit.is_model(c, group) for c in group.children if c.kind == "entry" and c is not candidate.node):
            # A group of the unit's men ("Squad Members", "Additional Men"): its limit counts men,
            # which the unit's size already bounds, not choices.
            return None
        minimum, maximum, held = self._group_limits(unit, priced, candidate)
        quality = next(iter(priced.trees))
        context = dict.fromkeys(candidate.context, 1)
        root, ctx = unit.configure(quality, context) if context else priced.trees[quality]
        ratio = self._per_model_limit(unit, priced, quality, group, context, root, ctx)
        if ratio:
            # A limit that grows with the unit's men is a limit per man.
            return ImportedOptionGroup(key=key, label=group.name, maximum=ratio, per_model=True)
        if candidate.per_man:
            # "Each man may swap his rifle for one of ...": the cap is per man.
            return ImportedOptionGroup(key=key, label=group.name, maximum=maximum, per_model=True) if maximum else None
        # Entries the unit holds by default fill the minimum; the options replace them.
        minimum = max(0, minimum - held)
        if minimum == 0 and maximum in (None, 1):
            return None
        return ImportedOptionGroup(key=key, label=group.name, minimum=minimum, maximum=maximum)

    def _per_model_limit(
        self,
        unit: _Unit,
        priced: _Priced,
        quality: str,
        node: _Node,
        context: dict[_Node, int],
        root: _Sel,
        ctx: _Ctx,
    ) -> int:
        """How many each man may take, when the entry's maximum grows with the unit's men (a
        constraint modified once per model); 0 when it does not."""
        base = unit.limit(node, "max", ctx)
        if base is None or not any(m.field and any(c.id == m.field for c in node.constraints) for m in node.modifiers):
            return 0
        grown: list[int | None] = [unit.limit(node, "max", unit.context(root, models_override=ctx.models + 1))]
        extra = priced.per_model_nodes.get(quality)
        if extra is not None:
            bigger, bigger_ctx = unit.configure(quality, {**context, extra: 1})
            if _find_selection(bigger, extra) is not None:
                grown.append(unit.limit(node, "max", bigger_ctx))
        if not any(value is not None and value > base for value in grown):
            return 0
        return max(1, round(base / max(ctx.models, 1)))

    def _option(
        self, unit: _Unit, priced: _Priced, candidate: _Candidate, base_weapons: list[str]
    ) -> ImportedOption | None:
        node, group = candidate.node, candidate.group
        costs: dict[str, int] = {}
        per_model_flags: set[bool] = set()
        grants: str | None = None
        replaces: str | None = None
        max_count: int | None = None
        adds_models = 0
        whole_unit = False
        scaled = False
        context = dict.fromkeys(candidate.context, 1)
        for quality in priced.trees:
            if not all(unit.offers(n, quality) for n in (*candidate.context, node)):
                continue
            if context:
                root, ctx = unit.configure(quality, context)
                if any(_find_selection(root, c) is None for c in context):
                    continue
            else:
                root, ctx = priced.trees[quality]
            if unit.hidden(node, ctx) or (group is not None and unit.hidden(group, ctx)):
                continue
            limit = unit.limit(node, "max", ctx)
            if limit is None and group is not None:
                limit = unit.limit(group, "max", ctx)
            if limit == 0:
                continue
            tree, tree_ctx = unit.configure(quality, {**context, node: 1})
            selection = _find_selection(tree, node)
            if selection is None:
                continue
            delta = unit.cost(tree, tree_ctx) - unit.cost(root, ctx)
            option_weapons = _weapons_of(selection)
            if replaces is None and group is not None:
                for before in _walk(root):
                    if before.group is group and _find_selection(tree, before.node) is None:
                        replaces = next(iter(_weapons_of(before)), None)
                        break
            per_model_node = priced.per_model_nodes.get(quality)
            men = _models_in(selection) // max(selection.count, 1)
            if not candidate.per_man and any(
                self._per_model_limit(unit, priced, quality, n, context, root, ctx) for n in (node, group) if n
            ):
                # Its maximum grows with the unit's men ("any man may swap his rifle"): per man.
                scaled = True
            if candidate.per_man or scaled:
                # Taken once for each man of the model it sits in: the price is per man.
                per_model_flags.add(True)
                costs[quality] = _round(delta / max(_instances(tree, node), 1))
            elif selection.is_model and per_model_node is not None and not unit.option_man(node, group, ctx):
                per_model_flags.add(False)
                plain = _weapons_of_node(per_model_node, unit, quality)
                if set(option_weapons) - set(plain):
                    # A "soldier with LMG" entry is one of the squad's models: what the
                    # player pays for is the difference from an ordinary soldier.
                    delta -= priced.per_model.get(quality, 0)
                    replaces = replaces or next(iter(plain), None)
                costs[quality] = _round(delta)
            elif men or node.type == "unit":
                # A team inside the unit (an LMG team, an extra crewman): its own men, its own price.
                per_model_flags.add(False)
                adds_models = max(adds_models, men or _team_size(node) or 1)
                costs[quality] = _round(delta)
            elif (revealed := tree_ctx.model_entries - ctx.model_entries) > 0:
                # A choice that brings men the unit lists elsewhere ("LMG Team (gunner and loader)"
                # showing a gunner and a loader in their own group): a team that adds them.
                per_model_flags.add(False)
                adds_models = max(adds_models, revealed)
                costs[quality] = _round(delta)
                if not option_weapons:
                    # Their weapons are the team's (the gunner's LMG).
                    before = _weapons_of(root)
                    option_weapons = [w for w in _weapons_of(tree) if w not in before]
            else:
                slope = self._slope(unit, quality, node, per_model_node, tree, tree_ctx, root, delta, context)
                if abs(slope) > 1e-9:
                    per_model_flags.add(True)
                    whole_unit = True
                    fixed = delta - slope * tree_ctx.models
                    if abs(fixed) > 0.5:
                        unit.note(f"option {node.name!r} costs {fixed:g} plus {slope:g} per model; imported per model")
                    costs[quality] = _round(slope)
                else:
                    per_model_flags.add(False)
                    costs[quality] = _round(delta)
            if grants is None and option_weapons:
                fresh = [w for w in option_weapons if w not in base_weapons]
                grants = (fresh or option_weapons)[0]
            if limit is not None:
                max_count = limit if max_count is None else max(max_count, limit)
        if not costs:
            self.report.skip(f"{node.name} ({node.id})", f"option of {unit.node.name!r} that can never be taken")
            return None
        if len(per_model_flags) > 1:
            unit.note(f"option {node.name!r} is per model at some qualities only; imported per model")
        per_model = True in per_model_flags
        if not per_model and max_count is None and not adds_models:
            # Nothing caps how often it is taken (an SMG for "any number of men"): as often as
            # there are men, each priced, rather than once for the unit.
            scaled = True
            per_model = True
        # An upgrade priced for every model and taken once is the whole unit's (grenades for all or none).
        all_models = per_model and whole_unit and not (candidate.per_man or scaled) and max_count in (None, 1)
        if candidate.per_man or scaled:
            max_count = None  # one per man: the unit's models are the cap
        return ImportedOption(
            source_id=node.id,
            within_size=bool(adds_models) and self._within_size(unit, priced, node),
            name=f"{candidate.prefix}{node.name}",
            per_model=per_model,
            cost=costs,
            max_count=max_count,
            grants_weapon=grants,
            replaces_weapon=replaces if replaces != grants else None,
            all_models=all_models,
            adds_models=adds_models,
        )

    def _within_size(self, unit: _Unit, priced: _Priced, node: _Node) -> bool:
        """A team the data puts inside a capped group of the unit's men (an NKVD squad's LMG team
        among its "NKVD Troops", at most 10): its men take places within that cap, not on top."""
        groups = _groups_above(unit.node, node)
        if not groups or not priced.trees:
            return False
        _root, ctx = next(iter(priced.trees.values()))
        return any(
            id(group) not in unit.quality_groups
            and not _choices_group(group)
            and unit.limit(group, "max", ctx) is not None
            and any(child.kind == "entry" and unit.is_model(child, group) for child in group.children)
            for group in groups
        )

    def _slope(
        self,
        unit: _Unit,
        quality: str,
        node: _Node,
        per_model_node: _Node | None,
        tree: _Sel,
        tree_ctx: _Ctx,
        root: _Sel,
        delta: float,
        context: dict[_Node, int],
    ) -> float:
        """How much the option's price grows with each extra model in the unit."""
        if per_model_node is not None and per_model_node is not node:
            with_both, both_ctx = unit.configure(quality, {**context, node: 1, per_model_node: 1})
            bigger, bigger_ctx = unit.configure(quality, {**context, per_model_node: 1})
            if _find_selection(bigger, per_model_node) is not None and _find_selection(with_both, node) is not None:
                return (unit.cost(with_both, both_ctx) - unit.cost(bigger, bigger_ctx)) - delta
        # A fixed-size unit: see whether the option's own modifiers count the models.
        more = unit.context(tree, models_override=tree_ctx.models + 1)
        base_more = unit.context(root, models_override=tree_ctx.models + 1)
        return (unit.cost(tree, more) - unit.cost(root, base_more)) - delta
