"""The payment solver against a brute-force oracle on random cities."""

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.common.payment import Market, Seller, caches, needless_purchase, plan_coins, plan_is_feasible
from app.engine.common.resources import INDEX, N_RESOURCES, ZERO, vector

R = range(N_RESOURCES)
vectors = st.lists(st.sampled_from(list(R)), max_size=4).map(lambda units: tuple(units.count(r) for r in R))
small_cost = st.lists(st.sampled_from(list(R)), max_size=5).map(lambda units: tuple(units.count(r) for r in R))
choice_cards = st.lists(
    st.lists(st.sampled_from(list(R)), min_size=2, max_size=4, unique=True).map(lambda o: tuple(sorted(o))),
    max_size=2,
).map(tuple)
prices = st.lists(st.sampled_from([1, 2]), min_size=N_RESOURCES, max_size=N_RESOURCES).map(tuple)


@st.composite
def sellers(draw, count: int) -> tuple[Seller, ...]:
    out = []
    for i in range(count):
        limit = draw(st.sampled_from([None, 1, 2])) if i == 2 else None
        out.append(Seller(draw(vectors), draw(choice_cards), draw(prices), limit))
    return tuple(out)


def supplies(fixed, choices):
    """Every supply vector the producer can offer, one per setting of its choice cards."""
    out = set()
    for picks in product(*[(*options, None) for options in choices]):
        v = list(fixed)
        for r in picks:
            if r is not None:
                v[r] += 1
        out.add(tuple(v))
    return out


def oracle(cost, own_fixed, own_choices, sellers_):
    """Every achievable coin vector, by exhaustive enumeration, reduced to its non-dominated front.

    For every setting of every choice card (own and sellers'), every split of every resource
    between own production and each seller is tried; seller limits are checked on the totals.
    """
    k = len(sellers_)
    achievable = set()
    seller_supplies = [supplies(s.fixed, s.choices) for s in sellers_]
    for own in supplies(own_fixed, own_choices):
        for supply in product(*seller_supplies):
            states = {((0,) * k, (0,) * k)}  # (coins per seller, units per seller)
            for r in R:
                ranges = [range(min(cost[r], own[r]) + 1)] + [range(min(cost[r], s[r]) + 1) for s in supply]
                splits = [units[1:] for units in product(*ranges) if sum(units) == cost[r]]
                states = {
                    (
                        tuple(c + u * sellers_[j].prices[r] for j, (c, u) in enumerate(zip(coins, split, strict=True))),
                        tuple(a + u for a, u in zip(units, split, strict=True)),
                    )
                    for coins, units in states
                    for split in splits
                }
            for coins, units in states:
                if all(s.limit is None or u <= s.limit for s, u in zip(sellers_, units, strict=True)):
                    achievable.add(coins)
    return {
        c for c in achievable if not any(o != c and all(x <= y for x, y in zip(o, c, strict=True)) for o in achievable)
    }


def check(cost, own_fixed, own_choices, sellers_):
    options = Market(own_fixed, own_choices, sellers_).options(cost)
    assert {o.coins for o in options} == oracle(cost, own_fixed, own_choices, sellers_)
    for o in options:
        assert plan_is_feasible(cost, own_fixed, own_choices, sellers_, o.buys)
        assert needless_purchase(cost, own_fixed, own_choices, o.buys) is None, (
            "an offered way buys only what is lacking"
        )
        assert plan_coins(sellers_, o.buys) == o.coins
    totals = [(o.total, o.coins) for o in options]
    assert totals == sorted(totals), "cheapest first"


@settings(max_examples=300, deadline=None)
@given(small_cost, vectors, choice_cards, sellers(2))
def test_solver_matches_brute_force_with_two_neighbours(cost, own_fixed, own_choices, sellers_):
    check(cost, own_fixed, own_choices, sellers_)


@settings(max_examples=100, deadline=None)
@given(small_cost, vectors, choice_cards, sellers(3))
def test_solver_matches_brute_force_with_a_limited_third_seller(cost, own_fixed, own_choices, sellers_):
    check(cost, own_fixed, own_choices, sellers_)


def test_split_between_both_neighbours_with_a_trading_post():
    """Need 2 ore; left sells ore at 1 (West Trading Post), right at 2; each has one ore."""
    left = Seller(vector({"ore": 1}), (), vector({"ore": 1}))
    right = Seller(vector({"ore": 1}), (), (2,) * N_RESOURCES)
    options = Market(ZERO, (), (left, right)).options(vector({"ore": 2}))
    assert [o.coins for o in options] == [(1, 2)]
    assert options[0].buys == (vector({"ore": 1}), vector({"ore": 1}))


def test_every_non_dominated_way_is_offered():
    """One stone from either neighbour at 2: both ways are offered, neither dominates."""
    left = Seller(vector({"stone": 1}), (), (2,) * N_RESOURCES)
    right = Seller(vector({"stone": 1}), (), (2,) * N_RESOURCES)
    options = Market(ZERO, (), (left, right)).options(vector({"stone": 1}))
    assert [o.coins for o in options] == [(0, 2), (2, 0)]


def test_cannot_pay_when_nobody_produces_it():
    seller = Seller(ZERO, (), (2,) * N_RESOURCES)
    assert Market(ZERO, (), (seller, seller)).options(vector({"glass": 1})) == ()


def test_choice_card_used_for_the_scarce_resource():
    """Own Tree Farm (wood/clay) with clay bought: paying wood+clay costs 2 only one way."""
    tree_farm = ((0, 2),)
    left = Seller(vector({"clay": 1}), (), (2,) * N_RESOURCES)
    right = Seller(ZERO, (), (2,) * N_RESOURCES)
    options = Market(ZERO, tree_farm, (left, right)).options(vector({"wood": 1, "clay": 1}))
    assert [o.coins for o in options] == [(2, 0)]
    assert options[0].buys[0] == vector({"clay": 1})


def test_markets_answer_as_fresh_ones_across_cache_clearings():
    """A market may outlive a clearing of the solver's tables (a game keeps its markets): after one,
    that market and a new one still get their own answers (a full search each: a seller's choice
    card offers both resources of the cost)."""
    cost = vector({"wood": 1, "clay": 1})
    wood_or_clay = ((INDEX["wood"], INDEX["clay"]),)
    cheap, dear = (1,) * N_RESOURCES, (2,) * N_RESOURCES
    first_sellers = (Seller(ZERO, wood_or_clay, dear), Seller(vector({"clay": 1}), (), cheap))
    other_sellers = (Seller(ZERO, wood_or_clay, cheap), Seller(vector({"clay": 1}), (), dear))
    first = Market(ZERO, (), first_sellers)
    before = first.options(cost)
    for table in (caches.MARKETS, caches.SOLVED, caches.FRONTS):
        table.clear()
    other = Market(ZERO, (), other_sellers)
    assert other.options(cost) == Market(ZERO, (), other_sellers).options(cost)
    first._memo.clear()  # ask it again, through the solver's tables
    assert first.options(cost) == before == Market(ZERO, (), first_sellers).options(cost)
    check(cost, ZERO, (), first_sellers)
    check(cost, ZERO, (), other_sellers)


def test_a_purchase_is_needless_when_own_production_covers_it():
    """Own stone (fixed) and a Timber Yard (stone or wood)."""
    own, timber_yard = vector({"stone": 1}), ((INDEX["stone"], INDEX["wood"]),)
    stone, wood, nothing = vector({"stone": 1}), vector({"wood": 1}), ZERO
    stone_and_wood = vector({"stone": 1, "wood": 1})  # nothing lacking: any purchase is needless
    assert needless_purchase(stone_and_wood, own, timber_yard, (stone, nothing)) == INDEX["stone"]
    assert needless_purchase(stone_and_wood, own, timber_yard, (nothing, wood)) == INDEX["wood"]
    two_stone_and_wood = vector({"stone": 2, "wood": 1})  # one unit lacking, stone or wood: either is needed
    assert needless_purchase(two_stone_and_wood, own, timber_yard, (stone, nothing)) is None
    assert needless_purchase(two_stone_and_wood, own, timber_yard, (nothing, wood)) is None
    assert needless_purchase(two_stone_and_wood, own, timber_yard, (stone, wood)) is not None  # one too many
