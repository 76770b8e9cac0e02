"""Close quarters between two units of men (spec §2.8).

Attacks hit automatically and roll to damage against the enemy's damage value [S004, S002]. A round is
won by the side that inflicts more casualties; a side wiped out loses; a draw fights another round
[S004]. The fight is a Markov chain on (attackers, defenders); draws strictly reduce both sides, so the
chain walks down the diagonal (a - k, d - k) and ends, with the only self-loop (nobody hurt) divided out.

Each round's outcome counts are exact integers over the product of the dice denominators, and the
chain is walked in integers too (``_chain``): one Fraction per answer, reduced once at the end.

An optional reaction step comes first (``close_quarters_after_reaction``): the defenders shoot at the
assaulting unit before it moves in ("Target reacts" in every edition's close-quarters sequence [S004,
S002, S000, S001]). The shooting engine's own volley gives the attackers' casualties and pin, the
morale module their check after losing half [§12], and the fight is the mixture over those outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from rules.combat.config import RulesConfig
from rules.combat.context import (
    BASE_MORALE,
    DAMAGE_VALUE,
    MAX_MODELS,
    MAX_PINS,
    QUALITIES,
    TargetCtx,
    check_choice,
    check_int,
)
from rules.combat.dice import ONE, PMF, ZERO, p_at_least
from rules.combat.morale import check_triggered, morale_check
from rules.combat.volley import ShotGroup, resolve_volley
from rules.errors import RulesError

RoundKind = Literal["attacker_first", "simultaneous", "defender_first"]

# One die's casualty weights (index = casualties) over a denominator.
DieWeights = tuple[tuple[int, ...], int]


@dataclass(frozen=True)
class CQSide:
    """One side of the fight. ``assault_weapons`` is how many of its models carry one."""

    models: int
    quality: str = "regular"
    tough_fighters: bool = False
    assault_weapons: int = 0
    defensive_position: bool = False
    # Tough as Boots (a British list's chosen characteristic, 2nd edition) [BR2]: one more attack die for
    # every three men fighting, counted each round from the men left. The caller decides it applies.
    extra_per_three: bool = False

    def __post_init__(self) -> None:
        check_int("models", self.models, 1, MAX_MODELS)
        check_choice("quality", self.quality, QUALITIES)
        check_int("assault_weapons", self.assault_weapons, 0, self.models)


@dataclass(frozen=True)
class CQResult:
    """Outcome probabilities of a whole fight (they sum to 1) and the expected number of rounds."""

    p_attacker_wins: Fraction
    p_defender_wins: Fraction
    p_both_destroyed: Fraction
    expected_rounds: Fraction
    first_round: RoundKind
    reaction: ReactionResult | None = None


@dataclass(frozen=True)
class Reaction:
    """The defenders' reaction fire at the assaulting unit, as the player gives it: ``shots`` dice that
    hit on ``need_hit`` (7 or more: a 6 and then another 6, as in any shooting) and damage on the
    attackers' damage value (their quality), with no save. ``attacker_pins`` are the pins the attackers
    carry when they charge: with the reaction's pin they count on the morale check it may force."""

    shots: int
    need_hit: int
    attacker_pins: int = 0

    def __post_init__(self) -> None:
        check_int("reaction.shots", self.shots, 1, MAX_REACTION_SHOTS)
        check_int("reaction.to_hit", self.need_hit, 2, 7)
        check_int("reaction.attacker_pins", self.attacker_pins, 0, MAX_PINS)


MAX_REACTION_SHOTS = 100  # a whole platoon's rifles and machine guns; keeps every answer fast
# Men a side in a fight after reaction fire. The exact answer mixes one fight per strength the fire may
# leave, and its reduced fraction grows with both sides: up to about 3,300 digits at 20 against 20, 9,600
# at 20 against 50, past the 4,300 digits Python will print (and no use to a reader). Twenty is above any
# Bolt Action squad.
MAX_REACTION_MODELS = 20


@dataclass(frozen=True)
class ReactionResult:
    """What the reaction fire did before the assault: the attackers' casualties (PMF), the chance they
    took a pin, were wiped out, took a morale check, and were broken (failed it, or their pins reached
    their morale), and the chance the assault goes in (neither)."""

    casualties: PMF
    p_pin: Fraction
    p_wiped_out: Fraction
    p_check: Fraction
    p_broken: Fraction
    p_assault: Fraction


def die_weights(mode: str, q: Fraction) -> DieWeights:
    """Casualties from one attack die that damages with chance q.

    plain {0: 1-q, 1: q}; 2e Tough Fighters roll once more for each casualty, without chaining
    [BS2, NK, MK] {0: 1-q, 1: q(1-q), 2: q^2}; 3e Tough Fighters re-roll failed damage [JK3]
    {0: (1-q)^2, 1: 1-(1-q)^2}.
    """
    n, b = q.numerator, q.denominator
    if mode == "bonus_roll_on_success":
        return (b * (b - n), n * (b - n), n * n), b * b
    if mode == "reroll_failed":
        return ((b - n) ** 2, b * b - (b - n) ** 2), b * b
    return (b - n, n), b


def first_round_kind(cfg: RulesConfig, defensive_position: bool) -> RoundKind:
    """Who strikes first: attacker first in 1e/2e, simultaneous in 3e [BoW, BTB]; across an obstacle or
    from a defensive position it is simultaneous in 1e [S004] and 2e [R], defender first in 3e [BoW, BTB]."""
    return cfg.cq_first_round_defensive if defensive_position else cfg.cq_first_round_open


@dataclass(frozen=True)
class _Arms:
    """How one side's models attack: dice per model and die type, for plain and assault-weapon models."""

    plain: DieWeights
    tough: DieWeights
    plain_model: tuple[int, int]  # (plain dice, tough dice) for a model without an assault weapon
    aw_model: tuple[int, int]  # the same for a model with one
    aw_count: int
    extra_per_three: bool = False

    def dice(self, n: int) -> tuple[int, int]:
        # Casualties come off models without assault weapons first: the owner picks casualties and
        # keeps the better-armed men (an assumption of the resolver, not a rule quotation).
        aw = min(self.aw_count, n)
        other = n - aw
        plain = other * self.plain_model[0] + aw * self.aw_model[0]
        tough = other * self.plain_model[1] + aw * self.aw_model[1]
        if self.extra_per_three:
            # Tough as Boots' bonus die "comes from any of the soldiers": Muster rolls it as a man without
            # an assault weapon rolls his (a Tough Fighters die for a Tough Fighters unit).
            if self.plain_model[1]:
                tough += n // 3
            else:
                plain += n // 3
        return plain, tough


def _arms(cfg: RulesConfig, side: CQSide, enemy_quality: str) -> _Arms:
    q = p_at_least(DAMAGE_VALUE[enemy_quality], cfg.nat1_always_fails)
    tf_extra = cfg.tough_fighters == "extra_attack"  # 1e "extra attack" [DOL, R]

    def model(has_aw: bool) -> tuple[int, int]:
        tough = side.tough_fighters or (has_aw and cfg.assault_weapon_cq == "tough_fighters")
        dice = 1 + (1 if has_aw and cfg.assault_weapon_cq == "two_attacks" else 0)  # 1e [S004]
        dice += 1 if tough and tf_extra else 0
        return (0, dice) if tough and not tf_extra else (dice, 0)

    return _Arms(
        plain=die_weights("plain", q),
        tough=die_weights(cfg.tough_fighters, q),
        plain_model=model(False),
        aw_model=model(True),
        aw_count=side.assault_weapons,
        extra_per_three=side.extra_per_three,
    )


@lru_cache(maxsize=4096)
def _power(die: DieWeights, n: int) -> tuple[tuple[int, ...], int]:
    """Integer weights of the total casualties from n copies of a die."""
    weights, base = die
    out: tuple[int, ...] = (1,)
    for _ in range(n):
        nxt = [0] * (len(out) + len(weights) - 1)
        for i, wi in enumerate(out):
            if wi:
                for j, wj in enumerate(weights):
                    nxt[i + j] += wi * wj
        out = tuple(nxt)
    return out, base**n


@lru_cache(maxsize=4096)
def _casualties(
    plain: DieWeights, n_plain: int, tough: DieWeights, n_tough: int, cap: int
) -> tuple[tuple[int, ...], int]:
    """Integer weights of the casualties inflicted, capped at the enemy's ``cap`` models."""
    wa, da = _power(plain, n_plain)
    wb, db = _power(tough, n_tough)
    out = [0] * (cap + 1)
    for i, x in enumerate(wa):
        if x:
            for j, y in enumerate(wb):
                out[min(i + j, cap)] += x * y
    return tuple(out), da * db


def _dist(arms: _Arms, n: int, cap: int) -> tuple[tuple[int, ...], int]:
    n_plain, n_tough = arms.dice(n)
    return _casualties(arms.plain, n_plain, arms.tough, n_tough, cap)


@dataclass(frozen=True)
class _Round:
    """Integer counts of one round's outcomes over ``total``; draws[k] leads to (a - k, d - k)."""

    att: int
    dfd: int
    both: int
    draws: tuple[int, ...]
    total: int


def _simultaneous(att: _Arms, dfd: _Arms, a: int, d: int) -> _Round:
    wx, dx = _dist(att, a, d)  # casualties on the defender
    wy, dy = _dist(dfd, d, a)  # casualties on the attacker
    cum_y = [0]
    for w in wy:
        cum_y.append(cum_y[-1] + w)
    cum_x = [0]
    for w in wx:
        cum_x.append(cum_x[-1] + w)
    both = wx[d] * wy[a]
    # Wiping the enemy out wins outright; otherwise more casualties wins.
    att_wins = wx[d] * (dy - wy[a]) + sum(wx[x] * cum_y[min(x, a)] for x in range(1, d))
    dfd_wins = wy[a] * (dx - wx[d]) + sum(wy[y] * cum_x[min(y, d)] for y in range(1, a))
    draws = tuple(wx[k] * wy[k] for k in range(min(a, d)))
    return _Round(att_wins, dfd_wins, both, draws, dx * dy)


def _sequential(first: _Arms, second: _Arms, f: int, g: int) -> tuple[int, int, tuple[int, ...], int]:
    """One round where ``first`` (f models) strikes, then the survivors of ``second`` (g models) reply.

    Returns (first wins, second wins, draws by casualties k, total); nobody can be destroyed together.
    """
    wx, dx = _dist(first, f, g)
    d_max = _dist(second, g, f)[1]
    first_wins = wx[g] * d_max
    second_wins = 0
    draws = [0] * min(f, g)
    for x in range(g):
        if not wx[x]:
            continue
        wy, dy = _dist(second, g - x, f)
        scale = d_max // dy
        wins_first = sum(wy[: min(x, f)])
        wins_second = wy[f] + sum(wy[x + 1 : f])
        first_wins += wx[x] * wins_first * scale
        second_wins += wx[x] * wins_second * scale
        if x < f:
            draws[x] += wx[x] * wy[x] * scale
    return first_wins, second_wins, tuple(draws), dx * d_max


def _round(kind: RoundKind, att: _Arms, dfd: _Arms, a: int, d: int) -> _Round:
    if kind == "simultaneous":
        return _simultaneous(att, dfd, a, d)
    if kind == "attacker_first":
        w_first, w_second, draws, total = _sequential(att, dfd, a, d)
        return _Round(w_first, w_second, 0, draws, total)
    w_first, w_second, draws, total = _sequential(dfd, att, d, a)
    return _Round(w_second, w_first, 0, draws, total)


def _chain(att: _Arms, dfd: _Arms, a0: int, d0: int, first: RoundKind, later: RoundKind) -> tuple[int, int, int, int]:
    """The fight from (a0, d0) as exact integers (attacker wins, both destroyed, rounds, denominator).

    The Markov chain walked forwards: a draw moves down the diagonal (a0 - j, d0 - j), so the chance of
    reaching each state j is pushed down the chain over one growing denominator (each later round's
    total less its self-loop), with no Fraction reduced on the way. A state reached with chance m ends
    as its round's outcomes weigh it and lasts total / (total - self-loop) rounds on average. The
    reaction step needs one such chain per strength the fire may leave, and every fight one chain:
    the memoised recursion over Fractions it replaced spent most of a 50-against-50 fight reducing
    them (1st edition, Tough Fighters: 1.23 s of CPU for one request, its three rule readings).
    """
    rnd = _round(first, att, dfd, a0, d0)
    den = rnd.total
    w_att, w_both, rounds = rnd.att, rnd.both, rnd.total  # the first round, one round
    length = min(a0, d0)
    pending = [rnd.draws[j] if j < len(rnd.draws) else 0 for j in range(length)]
    for j in range(length):
        reach = pending[j]
        if not reach:
            continue
        rnd = _round(later, att, dfd, a0 - j, d0 - j)
        denom = rnd.total - rnd.draws[0]
        if denom == 0:
            raise RulesError(
                "close_quarters: endless draw (neither side can cause a casualty)",
                code="endless-draw",
                params={"field": "close_quarters"},
            )
        w_att = w_att * denom + reach * rnd.att
        w_both = w_both * denom + reach * rnd.both
        rounds = rounds * denom + reach * rnd.total
        for k in range(j + 1, length):
            step = k - j
            pending[k] = pending[k] * denom + (reach * rnd.draws[step] if step < len(rnd.draws) else 0)
        den *= denom
    return w_att, w_both, rounds, den


def _kinds(cfg: RulesConfig, dfd: CQSide, first_round: RoundKind | None) -> tuple[RoundKind, RoundKind]:
    first = first_round or first_round_kind(cfg, dfd.defensive_position)
    check_choice("first_round", first, ("attacker_first", "simultaneous", "defender_first"))
    later: RoundKind = "simultaneous" if cfg.cq_later_rounds == "simultaneous" else first
    return first, later


@lru_cache(maxsize=512)
def close_quarters(cfg: RulesConfig, att: CQSide, dfd: CQSide, first_round: RoundKind | None = None) -> CQResult:
    """Exact outcome of a close-quarters fight (§2.8).

    ``first_round`` defaults to the edition's rule for the defender's position. Later rounds are
    simultaneous [S004; 2e/3e R], or repeat the first round's order under ``cq_later_rounds``.
    Raises RulesError when neither side can ever cause a casualty.
    """
    first, later = _kinds(cfg, dfd, first_round)
    arms = (_arms(cfg, att, dfd.quality), _arms(cfg, dfd, att.quality))
    n_att, n_both, n_rounds, den = _chain(*arms, att.models, dfd.models, first, later)
    p_att, p_both = Fraction(n_att, den), Fraction(n_both, den)
    # The fight always ends (a draw strictly reduces both sides): the defenders win the rest.
    return CQResult(
        p_attacker_wins=p_att,
        p_defender_wins=ONE - p_att - p_both,
        p_both_destroyed=p_both,
        expected_rounds=Fraction(n_rounds, den),
        first_round=first,
    )


def reaction_fire(cfg: RulesConfig, att: CQSide, reaction: Reaction) -> tuple[ReactionResult, dict[int, Fraction]]:
    """The reaction fire's outcome, and the chance the assault goes in with each number of men left.

    The volley is the shooting engine's (``resolve_volley``): kinetic small arms at infantry of the
    attackers' quality, in the open, no save. A unit the fire wipes out, or whose pins reach its morale,
    is gone; one that loses half its men takes the shooting's morale check (``check_triggered``, counted
    from the men who charge; no officer bonus) and is destroyed if it fails [§12]. Either way the
    assault does not happen and the defenders win.
    """
    m = att.models
    target = TargetCtx(kind="infantry", quality=att.quality, models=m, pins=reaction.attacker_pins)
    volley = resolve_volley(cfg, [ShotGroup(reaction.shots, reaction.need_hit, DAMAGE_VALUE[att.quality])], target)
    base = BASE_MORALE[att.quality]
    fights: dict[int, Fraction] = {}
    p_wiped = p_check = p_broken = ZERO
    for (c, pins, _forced), p in volley.outcome.items():
        if c >= m:
            p_wiped += p
            continue
        pins_now = reaction.attacker_pins + pins
        if cfg.pin_rout and pins_now >= base:
            p_broken += p
            continue
        go = p
        if check_triggered(cfg, c, m, m):
            p_check += p
            passed = morale_check(cfg, base, 0, pins_now)
            p_broken += p * (ONE - passed)
            go = p * passed
        if go:
            fights[m - c] = fights.get(m - c, ZERO) + go
    result = ReactionResult(
        casualties=volley.casualties_pmf,
        p_pin=volley.p_pin,
        p_wiped_out=p_wiped,
        p_check=p_check,
        p_broken=p_broken,
        p_assault=sum(fights.values(), ZERO),
    )
    return result, fights


@lru_cache(maxsize=256)
def close_quarters_after_reaction(
    cfg: RulesConfig, att: CQSide, dfd: CQSide, reaction: Reaction, first_round: RoundKind | None = None
) -> CQResult:
    """A fight that the defenders' reaction fire may thin out or stop before it starts.

    The exact mixture over the reaction's outcomes: with n men left the fight is ``close_quarters`` at
    n against the defenders (casualties come off men without assault weapons first, as in the fight);
    a stopped assault is a defenders' win in no round, so ``expected_rounds`` counts it as 0.
    """
    rx, fights = reaction_fire(cfg, att, reaction)
    first, later = _kinds(cfg, dfd, first_round)
    # One set of arms for every strength: casualties come off men without assault weapons first, which
    # ``_Arms.dice`` already follows as the men fall.
    arms = (_arms(cfg, att, dfd.quality), _arms(cfg, dfd, att.quality))
    w_att = w_both = rounds = ZERO
    for n, p in fights.items():
        n_att, n_both, n_rounds, den = _chain(*arms, n, dfd.models, first, later)
        w_att += p * Fraction(n_att, den)
        w_both += p * Fraction(n_both, den)
        rounds += p * Fraction(n_rounds, den)
    w_dfd = ONE - w_att - w_both  # the stopped assaults, and the fights the defenders win
    return CQResult(
        p_attacker_wins=w_att,
        p_defender_wins=w_dfd,
        p_both_destroyed=w_both,
        expected_rounds=rounds,
        first_round=first,
        reaction=rx,
    )


def attack_dice(cfg: RulesConfig, side: CQSide, enemy_quality: str) -> dict[str, int]:
    """How many plain and Tough-Fighter dice a side rolls at full strength (for display)."""
    plain, tough = _arms(cfg, side, enemy_quality).dice(side.models)
    return {"plain": plain, "tough": tough}


def clear_caches() -> None:
    """Drop this module's memo tables (used by the benchmark for honest timings)."""
    close_quarters.cache_clear()
    close_quarters_after_reaction.cache_clear()
    _casualties.cache_clear()
    _power.cache_clear()
