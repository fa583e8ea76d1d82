"""English text of the rules help screen.

The screen explains a game in sections (the game, bidding, card ranking,
play, scoring) and lists the house variants in force at the table. The
long explanations are whole keys per section, one per game, found through
the game's ``rules_help`` text key in the registry (``help.bidwhist``,
``help.wizard``: the game in one line, and the prefix of its sections), so a
translator sees a whole section at once and may reorder its sentences freely.

Section templates are filled in with the table's own numbers and with one
phrase per house rule: ``<prefix>.when.<key>.<value>`` words what that rule
value means, and is passed to the templates as ``{<key>_rule}``. Every
rule's current value is passed as ``{<key>}`` (a number, or the value's
words from the rule editor). Card ranks, card names and tier labels are
keys of their own, so the ranking lines are built from the rules' own
ranking, never from English words.
"""

STRINGS: dict[str, str] = {
    # ------------------------------------------------------------------ frame
    "help.title": "Rules: {game}",
    "help.back": "Back",
    "help.keys": "Mouse wheel, ↑ ↓ or Page Up / Page Down to scroll · Esc to close",
    "help.open_start": "Rules help",
    "help.open_menu": "Rules",

    # ------------------------------------------------------------------ section headings
    "help.section.table": "House rules at this table",
    "help.section.overview": "The game",
    "help.section.bidding": "Bidding",
    "help.section.ranking": "Card ranking",
    "help.section.play": "Play",
    "help.section.scoring": "Scoring",

    # ------------------------------------------------------------------ the variants in force
    "help.variants.intro": "Each rule below can be set in the rule editor or in a rules file under the name "
                           "shown in brackets. Rules marked as changed differ from the standard game.",
    "help.variants.row": "{label} ({yaml_key}): {value}",
    "help.variants.changed": "{row}: changed, standard is {default}",

    # ------------------------------------------------------------------ bidding ladder
    "help.ladder.intro": "Bids from lowest to highest:",
    "help.ladder.bid": "{books} {mode}",
    "help.ladder.equal": "{a} = {b}",
    "help.ladder.step": "{a} < {b}",

    # ------------------------------------------------------------------ card ranking
    "help.ranking.general": "No contract has been made yet, so here is the ranking of every kind of contract.",
    "help.ranking.no_trump_yet": "Trump is not known yet, so here is the ranking with any suit as trump.",
    "help.ranking.contract": "The contract now in play: {contract}.",
    "help.ranking.round_trump": "Trump this round: {suit}.",
    "help.ranking.round_no_trump": "This round has no trump.",
    "help.contract.trump": "{direction}, {suit} are trump",
    "help.contract.no_trump": "no trump, {direction}",
    "help.tier.trump": "Trump suit ({suit}), high to low",
    "help.tier.any_trump": "The trump suit, high to low",
    "help.tier.other": "Other suits, high to low",
    "help.tier.every_suit": "Every suit, high to low",
    "help.tier.uptown": "Uptown, every suit, high to low",
    "help.tier.downtown": "Downtown, every suit, high to low",
    "help.tier.uptown_other": "Uptown, the other suits and no trump, high to low",
    "help.tier.downtown_other": "Downtown, the other suits and no trump, high to low",
    "help.tier.uptown_trump": "Uptown, the trump suit, high to low",
    "help.tier.downtown_trump": "Downtown, the trump suit, high to low",
    "help.tier.led": "The suit led, high to low",
    "help.tier.wizard": "A Wizard beats everything; of several, the first one played wins",
    "help.tier.jester": "A Jester loses to everything; if every card is a Jester, the first one wins",
    "help.tier.off_suit": "A card of any other suit can never win the trick",
    "help.tier.numbered": "{n}. {text}",
    "help.list": "{a}, {b}",
    "help.rank.2": "2",
    "help.rank.3": "3",
    "help.rank.4": "4",
    "help.rank.5": "5",
    "help.rank.6": "6",
    "help.rank.7": "7",
    "help.rank.8": "8",
    "help.rank.9": "9",
    "help.rank.10": "10",
    "help.rank.11": "J",
    "help.rank.12": "Q",
    "help.rank.13": "K",
    "help.rank.14": "A",
    "help.card.big_joker": "big joker",
    "help.card.little_joker": "little joker",

    # ------------------------------------------------------------------ Bid Whist
    # The game in one line: the registry's "rules_help" text key, and the prefix of its sections.
    "help.bidwhist": "Two teams bid for the right to name trump, take the kitty and make their books.",
    "help.bidwhist.overview":
        "Four players in two partnerships: partners sit opposite each other. The deck has {deck_size} "
        "cards. {jokers_rule}\n\n"
        "The deal passes to the left after each hand. The dealer gives each player 12 cards, one at a time, "
        "starting at the dealer's left; the other {kitty} cards are laid face down as the kitty.",
    "help.bidwhist.when.jokers.true":
        "They are the 52 French cards and two jokers; the big joker outranks the little one.",
    "help.bidwhist.when.jokers.false": "They are the 52 French cards; this table plays without jokers.",
    "help.bidwhist.bidding":
        "Bidding starts at the dealer's left and goes once around the table; the dealer bids last. "
        "Each player passes or bids higher than the bid so far.\n\n"
        "A bid is a number and a mode. The number, from {min_bid} to 7, counts the books over six that the "
        "bidder's team will take: a bid of 4 promises 10 of the 13 books. Uptown means high cards win, "
        "downtown means low cards win; both name a trump suit after the bidding. No trump has no trump suit, "
        "and its declarer chooses uptown or downtown afterwards. The trump suit is never said during the "
        "bidding.\n\n"
        "A higher number always beats a lower one. At the same number, {downtown_outranks_uptown_rule}\n\n"
        "{all_pass_rule} {dealer_takes_rule}\n\n"
        "The highest bidder becomes the declarer. After naming trump (or the no-trump direction) the "
        "declarer takes the {kitty} kitty cards into hand and lays any {kitty} cards aside face down. "
        "They count as the declarer's team's first book.",
    "help.bidwhist.when.downtown_outranks_uptown.false":
        "no trump beats uptown and downtown, and uptown and downtown are equal: neither can overcall the other.",
    "help.bidwhist.when.downtown_outranks_uptown.true":
        "no trump beats downtown, and downtown beats uptown.",
    "help.bidwhist.when.all_pass.dealer_must_bid":
        "If the first three players pass, the dealer must bid.",
    "help.bidwhist.when.all_pass.redeal":
        "The dealer may pass too; if all four pass, the cards are thrown in and the next dealer deals.",
    "help.bidwhist.when.dealer_takes.true":
        "Once someone has bid, the dealer may take the contract at the high bid's number, in any mode, "
        "instead of passing or bidding higher.",
    "help.bidwhist.when.dealer_takes.false":
        "The dealer cannot take another player's bid: only a higher bid wins it.",
    "help.bidwhist.ranking":
        "In a trump contract the jokers, when in play, are the two highest trumps, and a joker led is a "
        "trump lead. In no trump the jokers belong to no suit and never win a trick: a joker may be played "
        "only by a player who cannot follow suit, or to lead, and after a joker lead the first other card "
        "sets the suit. {downtown_ace_rule}",
    "help.bidwhist.when.downtown_ace.high": "Downtown the ace stays the best card of its suit.",
    "help.bidwhist.when.downtown_ace.low": "Downtown the ace is the worst card of its suit.",
    "help.bidwhist.play":
        "{first_lead_rule} After that the winner of each trick leads the next. Players must follow the suit "
        "led if they can; a player who cannot may play any card. The highest trump wins the trick; without "
        "a trump, the highest card of the suit led wins. Twelve tricks are played: with the kitty's book "
        "that makes 13 books.\n\n"
        "{renege_rule}",
    "help.bidwhist.when.first_lead.declarer": "The declarer leads the first trick.",
    "help.bidwhist.when.first_lead.left_of_dealer": "The player at the dealer's left leads the first trick.",
    "help.bidwhist.when.renege.prevented":
        "A card that fails to follow suit when the player could follow is refused.",
    "help.bidwhist.when.renege.penalized":
        "A player may fail to follow suit (a renege). At the end of the hand the reneging team gives 3 of its "
        "books to the other team for each renege; a team with fewer than 3 books loses the hand as if the "
        "other team had taken all 13.",
    "help.bidwhist.scoring":
        "Only the declarer's team scores. If it takes at least six books plus its bid, it scores one point "
        "for every book over six, extra books included. Otherwise it is set and loses the number it bid.\n\n"
        "A no-trump contract counts {notrump_multiplier} times, made or set. {boston_rule}\n\n"
        "A team that reaches {target_score} points wins the game; a team that falls to -{target_score} "
        "loses it.",
    "help.bidwhist.when.boston.off":
        "Taking all 13 books (a Boston) earns nothing extra.",
    "help.bidwhist.when.boston.double":
        "A Boston (the declarer's team takes all 13 books) doubles the hand's score, after the no-trump count.",
    "help.bidwhist.when.boston.wins_game":
        "A Boston (the declarer's team takes all 13 books) wins the game at once, whatever the scores.",

    # ------------------------------------------------------------------ Wizard
    "help.wizard": "Everyone bids exactly how many tricks they will take, one more card each round.",
    "help.wizard.overview":
        "Three to six players, each playing alone, with {deck_size} cards: the 52-card deck (2 low, ace high) "
        "plus 4 Wizards and 4 Jesters. Rounds at this table: {rounds}.\n\n"
        "In round 1 each player gets one card, in round 2 two cards, and so on. After the deal the next card "
        "is turned up: its suit is trump, a Jester means no trump, and no card left means no trump. "
        "{wizard_turn_up_rule} The deal passes to the left each round.",
    "help.wizard.when.wizard_turn_up.dealer_chooses": "If a Wizard is turned up, the dealer names the trump suit.",
    "help.wizard.when.wizard_turn_up.first_bidder_chooses":
        "If a Wizard is turned up, the player at the dealer's left names the trump suit before anyone bids.",
    "help.wizard.when.wizard_turn_up.no_trump": "If a Wizard is turned up, the round has no trump.",
    "help.wizard.bidding":
        "Starting at the dealer's left, each player bids how many tricks they will take, from 0 up to the "
        "number of cards in a hand. {bidding_rule}\n\n{uneven_bids_rule}",
    "help.wizard.when.bidding.open": "Bids are made in turn, and everyone sees each bid as it is made.",
    "help.wizard.when.bidding.hidden":
        "Everyone chooses a bid in secret, and all bids are shown together before play.",
    "help.wizard.when.bidding.delayed_reveal":
        "Everyone chooses a bid in secret, and the bids are shown only after the round is played.",
    "help.wizard.when.uneven_bids.off": "Any bid is allowed.",
    "help.wizard.when.uneven_bids.always":
        "The last bidder may not make the bids add up to the number of cards in a hand, so someone must miss.",
    "help.wizard.when.uneven_bids.leader_only":
        "The last bidder may not make the bids add up to the number of cards in a hand when that player alone "
        "leads the score pad.",
    "help.wizard.ranking":
        "The suit led is that of the first card that is not a Jester. When a Wizard is led, or only Jesters "
        "have been played, there is no suit to follow yet.",
    "help.wizard.play":
        "The player at the dealer's left leads the first trick; the winner of each trick leads the next. "
        "A Wizard or a Jester may be played at any time. Otherwise a player who holds the suit led must "
        "play it.",
    "help.wizard.scoring":
        "A player who takes exactly the tricks they bid scores {exact_bonus} points plus {per_trick} for each "
        "trick taken. A player who misses loses {per_trick_off} points for each trick over or under the bid.\n\n"
        "After the last round the highest total wins; players tied for the highest share the win.",
}
