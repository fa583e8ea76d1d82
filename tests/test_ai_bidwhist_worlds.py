"""The Bid Whist worlds fitted to the bidding (``game.ai.bidwhist_worlds``): the hard constraints,
determinism, no peeking, the bidding read, bounded time, and the benchmark that measures them."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from conftest import bw_deal, bw_game, drive
from game.ai.bidwhist_medium import BidWhistMediumPlayer, choose_bid
from game.ai.budget import SearchBudget
from game.ai.search_pimc import SearchResult, search
from game.ai.bidwhist_worlds import BiddingFit
from game.ai.hand_eval import JOKERS
from game.rules import Action, Phase, make_rules, new_game
from game.rules.bidwhist import HIDDEN_INFO, BidWhistState, card_suit
from game.rules.cards import BIDWHIST_DECK, RANK_OF
from game.rules.hidden import HiddenCards
from game.rules.search import HiddenSampler, state_from_view
from game.rules.view import BidWhistView


def medium_views(seed: int) -> Iterator[tuple[BidWhistState, BidWhistView]]:
    """Views in the play of the first hand of a game of medium players: one for each seat at its
    first card and at its seventh (when voids have often been shown)."""
    state, _ = new_game(make_rules("bidwhist", {}), 4, seed)
    assert isinstance(state, BidWhistState)
    medium, rng = BidWhistMediumPlayer(), random.Random(seed)
    while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        view = state.view(state.current)
        if state.phase == Phase.PLAY and len(view.tricks) in (0, 6):
            assert isinstance(view, BidWhistView)
            yield state, view
        state.apply_in_place(medium.choose(view, rng), None, check=False)


def test_every_world_keeps_the_hard_constraints() -> None:
    declarer_views = other_views = voids_seen = 0
    for _, view in medium_views(seed=4):
        seat = view.seat
        sampler = HiddenSampler(view)
        fit = BiddingFit(view)
        rng = random.Random(seat)
        unseen = Counter(BIDWHIST_DECK) - Counter(view.hand) - Counter(view.played_cards()) - Counter(view.discards)
        for _ in range(2):
            world = fit.draw(view, sampler, rng)
            state_from_view(view, world, 1)  # the rules' own check: sizes, voids, seen cards, the kitty
            assert set(world.hands) == {s for s in range(4) if s != seat}
            placed = Counter(world.discards)
            for other, hand in world.hands.items():
                assert len(hand) == view.hand_sizes[other]
                assert not set(hand) & set(view.hand)
                assert all(card_suit(card, view.trump) not in view.voids[other] for card in hand)
                voids_seen += bool(view.voids[other])
                placed.update(hand)
            assert placed == unseen  # every unseen card dealt exactly once, nothing else
            if view.declarer == seat:  # the declarer knows its kitty and discards: nothing is guessed
                assert world.kitty == () and world.discards == ()
            else:
                assert len(world.discards) == view.kitty_size
        if view.declarer == seat:
            declarer_views += 1
        else:
            other_views += 1
    assert declarer_views and other_views and voids_seen


def test_worlds_fitted_seat_by_seat_keep_the_hard_constraints_in_every_phase() -> None:
    """The seat-by-seat draw redeals the seats not yet kept: every world it gives, from the bidding
    (the kitty apart) through the discards to the play (voids shown, the declarer's discards and
    kitty unseen), is one the rules accept, with every unseen card placed once."""
    state, _ = new_game(make_rules("bidwhist", {}), 4, 11)
    assert isinstance(state, BidWhistState)
    medium, rng = BidWhistMediumPlayer(), random.Random(11)
    phases: set[Phase] = set()
    redealt_with_voids = moves = 0
    while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        moves += 1
        for seat in range(4) if state.phase != Phase.PLAY or moves % 5 == 0 else ():
            view = state.view(seat)
            assert isinstance(view, BidWhistView)
            sampler = HiddenSampler(view)
            fit = BiddingFit(view, strictness=3.0, max_tries=4, by_seat=True)
            world = fit.draw(view, sampler, random.Random(seat))
            state_from_view(view, world, 1)  # sizes, voids, seen cards, the kitty out of the declarer's cards
            unseen = Counter(BIDWHIST_DECK) - Counter(view.hand) - Counter(view.played_cards())
            unseen -= Counter(view.discards) + Counter(view.kitty)
            kitty_apart = HIDDEN_INFO.layout(view).kitty_taker < 0  # else it is among the declarer's cards
            placed = Counter(world.discards) + Counter(world.kitty if kitty_apart else ())
            for hand in world.hands.values():
                placed.update(hand)
            assert placed == unseen
            phases.add(state.phase)
            if any(view.voids[other] for other in range(4) if other != seat):
                redealt = fit._redeal(world, {fit.judged_seats[0]}, random.Random(seat))
                if redealt is not None:
                    state_from_view(view, redealt, 1)
                    assert redealt.hands[fit.judged_seats[0]] == world.hands[fit.judged_seats[0]]
                    redealt_with_voids += 1
        state.apply_in_place(medium.choose(state.view(state.current), rng), None, check=False)
    assert phases == {Phase.BID, Phase.CONTRACT, Phase.DISCARD, Phase.PLAY} and redealt_with_voids


def test_fitting_seat_by_seat_asks_far_fewer_bids_of_the_medium_player_for_a_like_fit(monkeypatch) -> None:
    """A refused try costs one seat's bid, not a whole world's: the same strong bidder is dealt its
    high cards, for about half the medium player's bid evaluations of whole-world redraws."""
    asked = [0]

    def counting_choose_bid(*args, **kwargs):
        asked[0] += 1
        return choose_bid(*args, **kwargs)

    monkeypatch.setattr("game.ai.bidwhist_worlds.choose_bid", counting_choose_bid)
    counts = dict.fromkeys((False, True), 0)
    for _, view in medium_views(seed=1):
        sampler = HiddenSampler(view)
        for by_seat in (False, True):
            asked[0] = 0
            fit = BiddingFit(view, max_tries=16, by_seat=by_seat)
            for seed in range(3):
                fit.draw(view, sampler, random.Random(seed))
            counts[by_seat] += asked[0]
    assert counts[True] < 0.5 * counts[False]
    # The strong bidder of a seven no trump is dealt its high cards as often as by whole-world redraws.
    state = bw_game(bw_deal({}), dealer=3)
    state, _ = drive(state, "pass pass 7nt pass")  # seats 0 and 1 passed, seat 2 bid seven no trump
    view = state.view(0)
    assert isinstance(view, BidWhistView) and view.phase == Phase.CONTRACT
    sampler = HiddenSampler(view)
    worlds = {
        by_seat: [
            BiddingFit(view, max_tries=16, by_seat=by_seat).draw(view, sampler, random.Random(seed))
            for seed in range(16)
        ]
        for by_seat in (False, True)
    }
    for world in worlds[True]:
        state_from_view(view, world, 1)

    def mean_high(drawn: list[HiddenCards], seat: int) -> float:
        return sum(high_cards(world.hands[seat]) for world in drawn) / len(drawn)

    uniform = [sampler.sample(random.Random(seed)) for seed in range(16)]
    assert mean_high(worlds[True], 2) > mean_high(uniform, 2) + 1.0
    assert mean_high(worlds[True], 2) > mean_high(worlds[False], 2) - 0.5


def test_the_same_rng_gives_the_same_world() -> None:
    _, view = next(medium_views(seed=2))
    sampler = HiddenSampler(view)
    first = [BiddingFit(view).draw(view, sampler, random.Random(9)) for _ in range(2)]
    assert first[0] == first[1]
    assert BiddingFit(view).draw(view, sampler, random.Random(10)) != first[0]


def test_worlds_never_depend_on_the_hidden_cards() -> None:
    """Two real states that show the seat the same view, with the other hands dealt differently,
    give the same worlds for the same RNG: only the view is read."""
    checked = 0
    for index, (_, view) in enumerate(medium_views(seed=6)):
        sampler = HiddenSampler(view)
        one = state_from_view(view, sampler.sample(random.Random(index)), 1)
        other = state_from_view(view, sampler.sample(random.Random(index + 100)), 2)
        assert one.view(view.seat) == view == other.view(view.seat)
        checked += one.hands != other.hands
        worlds = []
        for state in (one, other):
            seen = state.view(view.seat)
            assert isinstance(seen, BidWhistView)
            worlds.append(BiddingFit(seen).draw(seen, HiddenSampler(seen), random.Random(5)))
        assert worlds[0] == worlds[1]
        if index >= 3:
            break
    assert checked >= 3


def high_cards(hand: tuple[int, ...]) -> int:
    return sum(1 for card in hand if card in JOKERS or RANK_OF[card] >= 13)


def test_a_strong_bidder_is_dealt_more_high_cards_than_a_passer() -> None:
    # Dealer 3; seat 1 passes, seat 2 bids seven no trump, seat 3 has nothing left to bid.
    # Seat 0 (which passed first) draws the worlds while seat 2 names the direction.
    state = bw_game(bw_deal({}), dealer=3)
    state, _ = drive(state, "pass pass 7nt pass")
    view = state.view(0)
    assert isinstance(view, BidWhistView) and view.phase == Phase.CONTRACT
    sampler, fit = HiddenSampler(view), BiddingFit(view)
    fitted = [fit.draw(view, sampler, random.Random(seed)) for seed in range(12)]
    uniform = [sampler.sample(random.Random(seed)) for seed in range(12)]

    def mean_high(worlds: list[HiddenCards], seat: int) -> float:
        return sum(high_cards(world.hands[seat]) for world in worlds) / len(worlds)

    assert mean_high(fitted, 2) > mean_high(fitted, 1) + 2.0
    assert mean_high(fitted, 2) > mean_high(uniform, 2) + 1.0


def test_a_draw_ends_after_its_tries_with_the_best_world() -> None:
    state = bw_game(bw_deal({}), dealer=3)
    state, _ = drive(state, "pass pass 7nt pass")
    view = state.view(0)
    assert isinstance(view, BidWhistView)

    class CountingSampler(HiddenSampler):
        draws = 0

        def sample(self, rng: random.Random) -> HiddenCards:
            CountingSampler.draws += 1
            return super().sample(rng)

    sampler = CountingSampler(view)
    # So strict that no world short of a perfect fit is kept: the draw stops at its bound.
    fit = BiddingFit(view, strictness=1e9, max_tries=5)
    world = fit.draw(view, sampler, random.Random(3))
    state_from_view(view, world, 1)
    assert CountingSampler.draws == 5
    # The world returned is the one of the five that misses the bidding least.
    rng = random.Random(3)
    misses = []
    for _ in range(5):
        misses.append(fit.misfit(HiddenSampler(view).sample(rng)))
        rng.random()  # the acceptance draw
    assert min(misses) > 0 and fit.misfit(world) == min(misses)


def test_the_declarers_discards_are_read_as_the_medium_player_lays_them_aside() -> None:
    """In the first trick, the same worlds with the declarer's discards read (those the medium player
    would lay aside from the declarer's drawn cards) hold its real discards far more often than as
    drawn (the real declarer is a medium player); only the declarer's hand and discards change."""
    read_hits = drawn_hits = views = 0
    for seed in range(1, 9):
        for state, view in medium_views(seed):
            if view.declarer == view.seat or view.tricks:
                continue
            views += 1
            truth = set(state.discards)
            sampler = HiddenSampler(view)
            # One draw a world (no fitting to the bidding): the reading of the discards alone.
            reading = BiddingFit(view, max_tries=1)
            drawing = BiddingFit(view, max_tries=1, read_declarer_discards=False)
            for draw_seed in range(4):
                read = reading.draw(view, sampler, random.Random(draw_seed))
                drawn = drawing.draw(view, sampler, random.Random(draw_seed))
                state_from_view(view, read, 1)
                assert {s: h for s, h in read.hands.items() if s != view.declarer} == {
                    s: h for s, h in drawn.hands.items() if s != view.declarer
                }
                read_hits += len(truth & set(read.discards))
                drawn_hits += len(truth & set(drawn.discards))
    assert views >= 10
    assert read_hits > 1.2 * drawn_hits  # 1.6 times here


def test_the_benchmark_reports_each_sampler(capsys) -> None:
    from benchmarks import ai_worlds

    ai_worlds.main(["--deals", "1", "--worlds", "2", "--every", "11"])  # the first trick only
    out = capsys.readouterr().out
    assert "P(true holder)" in out and "uniform (today)" in out and "+ discards" in out and "+ play" in out
    assert "seat by seat" in out
    assert "time per world (ms)" in out


def test_the_true_hands_of_medium_players_explain_every_bid_and_card() -> None:
    checked_discards = 0
    for state, view in medium_views(seed=3):
        fit = BiddingFit(view)
        truth = HiddenCards(
            hands={seat: tuple(state.hands[seat]) for seat in range(4) if seat != view.seat},
            kitty=() if view.kitty else tuple(state.kitty),
            discards=() if view.discards else tuple(state.discards),
        )
        assert fit.misfit(truth) == 0 and fit.play_misfit(truth) == 0
        assert fit.read_discards(truth) == truth  # the discards the medium declarer laid aside, read back
        checked_discards += bool(truth.discards)
    assert checked_discards


def test_reading_the_play_keeps_worlds_that_explain_the_cards_played() -> None:
    """Mid-hand, the best of three bid-fitted worlds at explaining the cards the others played
    misses fewer of those cards than single bid-fitted worlds do."""
    reading_misses = plain_misses = 0
    for _, view in medium_views(seed=5):
        if len(view.tricks) < 6:
            continue
        sampler = HiddenSampler(view)
        reading, plain = BiddingFit(view, play_tries=3), BiddingFit(view)
        for draw_seed in range(2):
            reading_misses += reading.play_misfit(reading.draw(view, sampler, random.Random(draw_seed)))
            plain_misses += reading.play_misfit(plain.draw(view, sampler, random.Random(draw_seed)))
    assert reading_misses < 0.8 * plain_misses


def test_a_search_plays_out_the_fitted_worlds() -> None:
    """``BiddingFit.draw`` is a ``DrawHidden``: the determinized search draws its worlds from it
    (what the expert level is to do) and returns a legal card, the same for the same RNG."""
    _, view = next((state, view) for state, view in medium_views(seed=7) if len(view.tricks) == 6)
    budget = SearchBudget(max_simulations=8, max_seconds=60.0)

    def run() -> SearchResult[Action]:
        return search(
            view,
            list(view.legal_actions),
            lambda state, action: state.apply_in_place(action, None, check=False),
            BidWhistMediumPlayer(),
            random.Random(1),
            budget,
            lambda: 0.0,  # a clock that never moves: the simulation count alone ends the search
            draw_hidden=BiddingFit(view, play_tries=2).draw,
        )

    first = run()
    assert first.simulations == 8 and first.best in view.legal_actions
    assert run() == first


def test_worlds_fit_the_view_before_the_play_too() -> None:
    """Every seat's view during the bidding, the contract and the discards (the kitty apart, then
    taken, the discards partly laid aside) gives worlds the rules accept."""
    state, _ = new_game(make_rules("bidwhist", {}), 4, 11)
    assert isinstance(state, BidWhistState)
    medium, rng = BidWhistMediumPlayer(), random.Random(11)
    phases = set()
    while state.phase != Phase.PLAY:
        for seat in range(4):
            view = state.view(seat)
            assert isinstance(view, BidWhistView)
            world = BiddingFit(view, max_tries=3).draw(view, HiddenSampler(view), random.Random(seat))
            state_from_view(view, world, 1)
            phases.add(state.phase)
        state.apply_in_place(medium.choose(state.view(state.current), rng), None, check=False)
    assert phases == {Phase.BID, Phase.CONTRACT, Phase.DISCARD}
