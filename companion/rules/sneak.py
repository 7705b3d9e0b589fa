"""Sneak: find the Sneak among the Sporks and Foons (rulebook ``sneak.txt``), three matches.

The companion replaces the hat and is the referee's memory; the challenge book stays on
the table. As implemented:

* **Hat and camps.** Once per game the group says who owns the hat; every match starts
  with that player and play goes clockwise (seat order). Each match the rules build the
  camp slips (one Sneak, the rest split between Sporks and Foons) and a SHUFFLE input
  deals them: player ``i`` draws slip ``order[i]``. Each player's camp is told only in a
  private event and ``private_view``; the public sees the number of each camp.
* **A turn** (``tag`` "turn") is one of: a challenge, a purchase of information, a call for
  a vote. Prompt tags in order: "hat" (once), "camps" (a shuffle, each match), "turn",
  "page", "kind", "giver"/"receiver" (after an Act), "target", "price", "card", "vote".
  A challenge is recorded by its page (the challenge's identifier), its type (Write,
  Act, or "show a Write card"), whether it switched camps and, after an Act challenge,
  the counters it moved (counters move only by Act challenges and purchases). A purchase costs 1 counter (card shown to all) or 2 (shown to
  the buyer only), paid to the target.
* **Votes** are entered from the cards once they are held up; then the camps of the match
  become public history and the match is scored exactly as written: a correct guess +5, a
  wrong one -1, a non-Sneak named wrongly +1 per naming; the Sneak -1 per correct guess
  and +3 per wrong one; the vote caller +3 more if right, -2 more if wrong, unless the
  caller was the Sneak or a Force Vote ended the match. Counters do not score.
* After three full rounds (every player has had three turns) with no vote called, a
  Force Vote. Three matches, fresh camps and 4 counters each; the most points win, and
  ties share the win.

Readings where the rulebook is silent or loose (each one tested in ``tests/test_sneak.py``):

* Reading: 4 to 12 players (the rulebook says "4 or more"; 12 is a sensible table and keeps
  the LCD's choice lists short).
* Reading: the challenge book is not the companion's: it records what was done. Cards' contents
  never reach it either: a purchase records who saw which card, not what is on it.
* Reading: the group names the hat owner once, at the start; that player starts every match.
* Reading: "one camp will have an extra player" happens when the players other than the
  Sneak are odd in number; which camp is the game option ``extra_camp`` (Spork by default),
  announced in every match's public "camps dealt" event and in ``public_view``.
* Reading: the camp slips are listed Sneak, Sporks, Foons; the shuffle permutes them. The
  companion draws that shuffle itself (the daemon's controller does for every SHUFFLE
  prompt) and never shows it: the permutation gives the camps away. Each camp then reaches
  its player as a private event ("pass to Ann, hold OK to see").
* Reading: a challenge is identified by its page (506 to 587, the CULTURE pages); "already
  performed that round" means the same page earlier in the same round. A round is one turn
  for each player, starting from the hat owner. A page flipped away ("Flip again") was not
  performed and is not recorded.
* Reading: a "show a Write card" challenge before any Write challenge of the match is
  rejected (the player flips again); it is recorded as its own type, is neither Write nor
  Act, and does not switch camps (it only shows a card).
* Reading: the challenge's type, whether it switched camps and whether it moved counters are
  one answer ("Write", "Act, camps switch", "Act, moves counters"...: one press, not three). A switch swaps every Spork and Foon;
  every player, the Sneak too ("Camp switch: the Sneak"), gets a private event with their
  camp, so who is told something reveals nothing; the public event "Camps switch! Check
  your card" and ``camp_switches`` (public and private views) tell screens that every camp
  must be shown again.
* Reading: counters moved by an Act challenge ("take or give counters") are recorded after
  it, one counter at a time, from one player to another; there is no bank, so the table always holds
  4 counters per player. Only players holding a counter can give one.
* Reading: every player performs every Write challenge, so once a Write challenge has been
  done in the match every player holds its card; before that nobody has a Write card and a
  purchase is rejected. The buyer names the card by its page. A player cannot buy from
  themselves, nor spend counters they do not have. For 1 counter the page bought is public;
  for 2 counters the public sees who paid whom, and which card only the buyer's private view.
* Reading: the reveal is the moment the cards are held up; the votes are entered after it,
  in seat order, so vote entry (and its messages) may name the Sneak. Until the vote is
  called nothing public depends on the camps. Every card is entered, the Sneak's too, so the
  prompt shown while guesses are still being written (always the first seat's card) gives
  nothing away. Only the Sneak's card reads "I'm the Sneak!" and the Sneak's card always
  does; nobody names themselves. Once the last card is entered
  the match's camps (as on the cards, after any switches) are public history.
* Reading: ``stats()["sneak_caught"]`` counts matches where most non-Sneaks named the Sneak;
  ``votes_called``/``force_votes`` how each match ended; ``sneak_called`` matches where the
  Sneak called the vote; ``first_place_players`` how many share the win.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from companion.rules.core import (CHOICE, NUMBER, SHUFFLE, Event, Game, GameOption, IllegalInput,
                                  Input, Option, Prompt, choice)

SNEAK, SPORK, FOON = "sneak", "spork", "foon"
CAMP_NAMES = {SNEAK: "the Sneak", SPORK: "a Spork", FOON: "a Foon"}
SWAPPED = {SPORK: FOON, FOON: SPORK, SNEAK: SNEAK}

MATCHES = 3
ROUNDS = 3            # Force Vote after three full rounds
START_COUNTERS = 4
FIRST_PAGE, LAST_PAGE = 506, 587   # the CULTURE schema's challenge pages

# Scores as written in the rulebook.
RIGHT, WRONG, NAMED = 5, -1, 1
SNEAK_PER_RIGHT, SNEAK_PER_WRONG = -1, 3
CALLER_RIGHT, CALLER_WRONG = 3, -2

PUBLIC_PRICE, PRIVATE_PRICE = 1, 2

# Phases (self.s["phase"]): what the prompt asks.
HAT, CAMPS, TURN, PAGE, KIND, GIVER, RECEIVER, TARGET, PRICE, CARD, VOTES, OVER = (
    "hat", "camps", "turn", "page", "kind", "giver", "receiver", "target", "price", "card",
    "votes", "over")

ACTIONS = (Option("challenge", "Challenge"), Option("buy", "Buy information"),
           Option("vote", "Call a vote"))
# The challenge's type, whether it switched camps and whether it moved counters in one
# answer: one press, not three. Commonest first; "Flip again" is one press up (it wraps).
KINDS = (Option("write", "Write"), Option("act", "Act"), Option("act-counters", "Act, moves counters"),
         Option("write-switch", "Write, camps switch"), Option("act-switch", "Act, camps switch"),
         Option("act-switch-counters", "Act,switch,counters"),
         Option("show", "Show a Write card"), Option("flip", "Flip again"))
KIND_NAMES = {"write": "Write", "act": "Act", "show": "Show-a-card"}
PRICES = (Option("1", "1: shown to all"), Option("2", "2: only to me"))
NO_MORE = Option("done", "Done: no more")
I_AM_SNEAK = Option("sneak", "I'm the Sneak!")
_FIXED = frozenset({TURN, PAGE, KIND, TARGET, PRICE, HAT})


def slips(n: int, extra: str) -> list[str]:
    """The camp slips for ``n`` players, in the order the shuffle permutes them."""
    rest = n - 1
    sporks = rest // 2 + (rest % 2 if extra == SPORK else 0)
    return [SNEAK] + [SPORK] * sporks + [FOON] * (rest - sporks)


def camp_counts(camps: list[str]) -> dict[str, int]:
    return {c: camps.count(c) for c in (SNEAK, SPORK, FOON)}


def _counts_text(counts: dict[str, int]) -> str:
    s, f = counts[SPORK], counts[FOON]
    return f"1 Sneak, {s} Spork{'s' if s != 1 else ''}, {f} Foon{'s' if f != 1 else ''}"


def match_gains(sneak: int, cards: list, caller: int | None, forced: bool) -> list[int]:
    """Each player's points for one match, from the cards (a player index, or "sneak").

    ``cards[i]`` is whom player ``i`` named; the Sneak's card is "sneak".
    """
    gains = [0] * len(cards)
    for voter, named in enumerate(cards):
        if voter == sneak:
            continue
        if named == sneak:
            gains[voter] += RIGHT
            gains[sneak] += SNEAK_PER_RIGHT
        else:
            gains[voter] += WRONG
            gains[sneak] += SNEAK_PER_WRONG
            gains[named] += NAMED
    if caller is not None and not forced and caller != sneak:
        gains[caller] += CALLER_RIGHT if cards[caller] == sneak else CALLER_WRONG
    return gains


@lru_cache(maxsize=64)
def _slip_sporks(n: int, extra: str) -> int:
    return slips(n, extra).count(SPORK)


@lru_cache(maxsize=64)
def _name_options(players: tuple[str, ...]) -> tuple[Option, ...]:
    return tuple(Option(str(i), p) for i, p in enumerate(players))


@lru_cache(maxsize=512)
def _other_options(players: tuple[str, ...], me: int) -> tuple[Option, ...]:
    return tuple(o for i, o in enumerate(_name_options(players)) if i != me)


@lru_cache(maxsize=64)
def _table_prompts(players: tuple[str, ...]) -> dict:
    """A cache of one table's fixed prompts, shared by every game object of that table
    (a simulation rebuilds games by replay)."""
    return {}


def _fixed_prompt(players: tuple[str, ...], ph: str, p: int | None) -> Prompt:
    """The prompts that depend only on the table, the step and the player (cached: a
    simulation asks them hundreds of thousands of times)."""
    who = None if p is None else players[p]
    if ph == TURN:
        return choice(f"{who}: your turn", ACTIONS, player=p, tag="turn")
    if ph == PAGE:
        return Prompt(NUMBER, f"{who}: challenge page?", player=p, low=FIRST_PAGE,
                      high=LAST_PAGE, tag="page")
    if ph == KIND:
        return choice(f"{who}: challenge type?", KINDS, player=p, tag="kind")
    if ph == TARGET:
        return choice(f"{who} buys from?", _name_options(players), player=p, tag="target")
    if ph == PRICE:
        return choice(f"{who} pays?", PRICES, player=p, tag="price")
    if ph == VOTES:
        return choice(f"{who}'s card says?", (I_AM_SNEAK,) + _other_options(players, p), player=p,
                      tag="vote")
    return choice("Who owns the hat?", _name_options(players), tag="hat")


class Sneak(Game):
    game_id = "sneak"
    title = "Sneak"
    min_players = 4
    max_players = 12
    options = (
        GameOption("extra_camp", "choice", SPORK,
                   "With an odd number of non-Sneaks, the camp that has one more player.",
                   choices=(SPORK, FOON)),
    )

    # -- state ---------------------------------------------------------------------

    def start(self) -> None:
        n = self.n
        self.s = {
            "phase": HAT, "hat": None, "match": 1,
            "camps": None,              # current camp per player (secret until the reveal)
            "counters": [START_COUNTERS] * n,
            "points": [0] * n,
            "turns": 0,                 # turns completed this match
            "round_pages": [],          # pages performed this round
            "writes": [],               # pages of this match's Write challenges
            "challenges": [], "purchases": [], "moves": [],
            "switches": 0,
            "pending": {},              # the turn in progress (page, kind, target, price, giver)
            "caller": None, "forced": False, "cards": [],
            "history": [],
        }

    def current(self) -> int:
        s = self.s
        return (s["hat"] + s["turns"]) % len(self.setup.players)

    # -- prompts -------------------------------------------------------------------

    def _prompt(self) -> Prompt | None:
        s = self.s
        ph = s["phase"]
        players = self.setup.players
        if ph in _FIXED or ph == VOTES:
            # Most prompts depend only on the table, the step and one player: built once.
            who = (None if ph == HAT else len(s["cards"]) if ph == VOTES
                   else (s["hat"] + s["turns"]) % len(players))
            cache = getattr(self, "_prompts", None)
            if cache is None:
                cache = self._prompts = _table_prompts(players)
            p = cache.get((ph, who))
            if p is None:
                p = cache[(ph, who)] = _fixed_prompt(players, ph, who)
            return p
        if ph == GIVER:
            opts = (NO_MORE,) + tuple(o for o, c in zip(_name_options(players), s["counters"]) if c > 0)
            return choice("Who gave a counter?", opts, tag="giver")
        if ph == RECEIVER:
            g = s["pending"]["giver"]
            return choice(f"{players[g]} gave a counter to?", _other_options(players, g), tag="receiver")
        if ph == CARD:
            p = self.current()
            # A page done twice in a match (in two rounds) names both its cards: listed once.
            opts = tuple(Option(str(pg), f"Card of p.{pg}") for pg in dict.fromkeys(s["writes"]))
            private = s["pending"]["price"] == PRIVATE_PRICE
            return choice(f"{players[p]}: which card?", opts, player=p, secret=private, tag="card")
        if ph == CAMPS:
            # The companion draws the permutation itself and never shows it (it gives every
            # camp away); not ``secret``: there is nobody to hand the device to.
            return Prompt(SHUFFLE, f"Match {s['match']}: deal the camps", count=len(players),
                          tag="camps")
        return None

    # -- inputs --------------------------------------------------------------------

    def _apply(self, inp: Input) -> list[Event]:
        return _HANDLERS[self.s["phase"]](self, inp.value)

    def _on_hat(self, key: str) -> list[Event]:
        self.s["hat"] = int(key)
        self.s["phase"] = CAMPS
        return [Event("hat", f"{self.players[int(key)]} owns the hat", player=int(key))]

    def _on_camps(self, order: tuple) -> list[Event]:
        s = self.s
        deck = slips(self.n, self.setup.options["extra_camp"])
        s["camps"] = [deck[k] for k in order]
        s["phase"] = TURN
        counts = camp_counts(s["camps"])
        events = [Event("camps-dealt", f"Match {s['match']}: {_counts_text(counts)}",
                        data={"match": s["match"], "counts": counts})]
        events += self._camp_events("Your camp")
        return events

    def _camp_events(self, why: str) -> list[Event]:
        # One private event for EVERY player, the Sneak included, so that who is told
        # something says nothing about who is who.
        return [Event("camp", f"{why}: {CAMP_NAMES[c]}", player=i, private=True, data={"camp": c})
                for i, c in enumerate(self.s["camps"])]

    def _on_turn(self, key: str) -> list[Event]:
        s = self.s
        p = self.current()
        who = self.players[p]
        if key == "challenge":
            s["phase"] = PAGE
            return []
        if key == "buy":
            if s["counters"][p] < PUBLIC_PRICE:
                raise IllegalInput(f"{who} has no counters, so cannot buy: choose a challenge or call a vote.")
            if not s["writes"]:
                raise IllegalInput("Nobody has a Write card yet this match (no Write challenge so far): "
                                   "choose a challenge or call a vote.")
            s["phase"] = TARGET
            return []
        return self._start_vote(p, forced=False)

    def _on_page(self, page: int) -> list[Event]:
        s = self.s
        if page in s["round_pages"]:
            raise IllegalInput(f"The challenge of page {page} was already done this round: "
                               "flip to another page.")
        s["pending"] = {"page": page}
        s["phase"] = KIND
        return []

    def _on_kind(self, key: str) -> list[Event]:
        s = self.s
        if key == "flip":
            s["pending"] = {}
            s["phase"] = PAGE
            return []
        if key == "show" and not s["writes"]:
            raise IllegalInput("No Write challenge yet this match, so there is no Write card to show: "
                               "choose Flip again and flip to a new challenge.")
        s["pending"]["kind"] = key.partition("-")[0]
        return self._record_challenge("switch" in key, "counters" in key)

    def _record_challenge(self, switched: bool, counters: bool) -> list[Event]:
        s = self.s
        players = self.setup.players
        turns = s["turns"]
        p = (s["hat"] + turns) % len(players)
        page, kind = s["pending"]["page"], s["pending"]["kind"]
        s["round_pages"].append(page)
        if kind == "write":
            s["writes"].append(page)
        s["challenges"].append({"player": p, "page": page, "kind": kind, "switched": switched,
                                "round": turns // len(players) + 1})
        events = [Event("challenge", f"{players[p]}: {KIND_NAMES[kind]} p.{page}", p, False,
                        {"page": page, "kind": kind})]
        if switched:
            s["camps"] = [SWAPPED[c] for c in s["camps"]]
            s["switches"] += 1
            events.append(Event("camps-switched", "Camps switch! Check your card",
                                data={"switches": s["switches"]}))
            events += self._camp_events("Camp switch")
        s["pending"] = {}
        if counters:
            s["phase"] = GIVER
            return events
        return events + self._end_turn()

    def _on_giver(self, key: str) -> list[Event]:
        s = self.s
        if key == "done":
            return self._end_turn()
        s["pending"] = {"giver": int(key)}
        s["phase"] = RECEIVER
        return []

    def _on_receiver(self, key: str) -> list[Event]:
        s = self.s
        g, r = s["pending"]["giver"], int(key)
        s["counters"][g] -= 1
        s["counters"][r] += 1
        s["moves"].append({"from": g, "to": r})
        s["pending"] = {}
        s["phase"] = GIVER
        return [Event("counter", f"{self.players[g]} gave {self.players[r]} 1 counter")]

    def _on_target(self, key: str) -> list[Event]:
        s = self.s
        t = int(key)
        if t == self.current():
            raise IllegalInput("You cannot buy a look at your own card: choose another player.")
        s["pending"] = {"target": t}
        s["phase"] = PRICE
        return []

    def _on_price(self, key: str) -> list[Event]:
        s = self.s
        p = self.current()
        price = int(key)
        have = s["counters"][p]
        if price > have:
            raise IllegalInput(f"{self.players[p]} has only {have} counter{'s' if have != 1 else ''}; "
                               f"a private look costs {PRIVATE_PRICE}: pay {PUBLIC_PRICE} to show it to all.")
        s["pending"]["price"] = price
        s["phase"] = CARD
        return []

    def _on_card(self, key: str) -> list[Event]:
        s = self.s
        p = self.current()
        t, price = s["pending"]["target"], s["pending"]["price"]
        page = int(key)
        s["counters"][p] -= price
        s["counters"][t] += price
        s["purchases"].append({"buyer": p, "target": t, "price": price, "page": page})
        s["pending"] = {}
        buyer, target = self.players[p], self.players[t]
        if price == PUBLIC_PRICE:
            events = [Event("purchase", f"{target} shows all card p.{page}", player=p,
                            data={"target": t, "price": price, "page": page})]
        else:
            events = [Event("purchase", f"{buyer} pays {target} 2 to look", player=p,
                            data={"target": t, "price": price}),
                      Event("look", f"{target} shows you card p.{page}", player=p, private=True,
                            data={"target": t, "page": page})]
        return events + self._end_turn()

    def _end_turn(self) -> list[Event]:
        s = self.s
        n = len(self.setup.players)
        turns = s["turns"] = s["turns"] + 1
        s["phase"] = TURN
        if turns % n == 0:
            s["round_pages"] = []
            if turns == ROUNDS * n:
                return self._start_vote(None, forced=True)
        return []

    def _start_vote(self, caller: int | None, forced: bool) -> list[Event]:
        s = self.s
        s["caller"], s["forced"], s["cards"] = caller, forced, []
        s["phase"] = VOTES
        if forced:
            return [Event("vote", "Force Vote! Write your guess")]
        return [Event("vote", f"{self.players[caller]} calls a vote!", player=caller)]

    def _on_votes(self, key: str) -> list[Event]:
        s = self.s
        players = self.setup.players
        v = len(s["cards"])
        who = players[v]
        is_sneak = s["camps"][v] == SNEAK
        if key == "sneak" and not is_sneak:
            raise IllegalInput(f"Only the Sneak's card says \"I'm the Sneak!\" and {who} is not the "
                               f"Sneak: enter whom {who}'s card names.")
        if key != "sneak" and is_sneak:
            raise IllegalInput(f"{who} is the Sneak, whose card says \"I'm the Sneak!\": choose that.")
        s["cards"].append(key if key == "sneak" else int(key))
        label = "I'm the Sneak!" if key == "sneak" else players[int(key)]
        events = [Event("card", f"{who}: {label}", v)]
        if v + 1 == len(players):
            events += self._score_match()
        return events

    def _score_match(self) -> list[Event]:
        s = self.s
        sneak = s["camps"].index(SNEAK)
        gains = match_gains(sneak, s["cards"], s["caller"], s["forced"])
        for i, g in enumerate(gains):
            s["points"][i] += g
        s["history"].append({"match": s["match"], "camps": list(s["camps"]), "sneak": sneak,
                             "cards": list(s["cards"]), "caller": s["caller"], "forced": s["forced"],
                             "switches": s["switches"], "gains": gains})
        events = [Event("reveal", f"The Sneak was {self.players[sneak]}", player=sneak,
                        data={"camps": dict(zip(self.players, s["camps"]))}),
                  Event("match-scored", f"Match {s['match']} scored",
                        data={"gains": dict(zip(self.players, gains))})]
        if s["match"] == MATCHES:
            s["phase"] = OVER
            events.append(Event("game-over", self.score()["text"]))
            return events
        n = self.n
        s.update({"phase": CAMPS, "match": s["match"] + 1, "camps": None,
                  "counters": [START_COUNTERS] * n, "turns": 0, "round_pages": [], "writes": [],
                  "challenges": [], "purchases": [], "moves": [], "switches": 0, "pending": {},
                  "caller": None, "forced": False, "cards": []})
        return events

    # -- views -----------------------------------------------------------------------

    def score(self) -> dict:
        s = self.s
        pts = dict(zip(self.players, s["points"]))
        best = max(s["points"])
        leaders = [p for p, v in pts.items() if v == best]
        over = s["phase"] == OVER
        if over:
            text = f"{leaders[0]} wins: {best}" if len(leaders) == 1 else f"Tie {best}: {', '.join(leaders)}"
        elif len(leaders) == 1:
            text = f"M{s['match']} lead {leaders[0]} {best}"
        else:
            text = f"M{s['match']} tied at {best}"
        return {"text": text[:20], "points": pts, "winners": leaders if over else [],
                "match": min(s["match"], MATCHES), "matches": MATCHES}

    def _name_of(self, i: int | None) -> str | None:
        return None if i is None else self.players[i]

    def _card_label(self, card: Any) -> str:
        return "I'm the Sneak!" if card == "sneak" else self.players[card]

    def public_view(self) -> dict:
        s = self.s
        nm = self.players
        playing = s["phase"] not in (HAT, CAMPS, OVER)
        view: dict[str, Any] = {
            "match": s["match"], "matches": MATCHES, "phase": s["phase"],
            "hat_owner": self._name_of(s["hat"]),
            "extra_camp": self.setup.options["extra_camp"] if (self.n - 1) % 2 else None,
            "counters": dict(zip(nm, s["counters"])),
            "points": dict(zip(nm, s["points"])),
            # The number in each camp is public (the slips are known); who is which is not.
            "camp_counts": camp_counts(s["camps"]) if s["camps"] else None,
            "camp_switches": s["switches"],
            "turn": None,
            "challenges": [{"player": nm[c["player"]], "page": c["page"], "kind": c["kind"],
                            "switched": c["switched"], "round": c["round"]} for c in s["challenges"]],
            "pages_this_round": list(s["round_pages"]),
            "write_pages": list(s["writes"]),
            "purchases": [self._public_purchase(b) for b in s["purchases"]],
            "counter_moves": [{"from": nm[m["from"]], "to": nm[m["to"]]} for m in s["moves"]],
            "vote": None,
            "history": [self._public_match(h) for h in s["history"]],
        }
        if playing and s["phase"] != VOTES:
            view["turn"] = {"player": nm[self.current()], "round": s["turns"] // self.n + 1,
                            "rounds": ROUNDS, "turns_taken": s["turns"]}
        if s["phase"] == VOTES:
            view["vote"] = {"caller": self._name_of(s["caller"]), "forced": s["forced"],
                            "cards": {nm[i]: self._card_label(c) for i, c in enumerate(s["cards"])}}
        return view

    def _public_purchase(self, b: dict) -> dict:
        out = {"buyer": self.players[b["buyer"]], "target": self.players[b["target"]], "price": b["price"]}
        if b["price"] == PUBLIC_PRICE:
            out["page"] = b["page"]
        return out

    def _public_match(self, h: dict) -> dict:
        nm = self.players
        return {"match": h["match"], "camps": dict(zip(nm, h["camps"])), "sneak": nm[h["sneak"]],
                "cards": {nm[i]: self._card_label(c) for i, c in enumerate(h["cards"])},
                "caller": self._name_of(h["caller"]), "forced": h["forced"],
                "gains": dict(zip(nm, h["gains"]))}

    def private_view(self, player: int) -> dict:
        s = self.s
        camp = s["camps"][player] if s["camps"] else None
        return {"player": self.players[player], "match": s["match"], "camp": camp,
                "camp_text": CAMP_NAMES[camp] if camp else None,
                "camp_switches": s["switches"],
                "bought": [{"from": self.players[b["target"]], "page": b["page"], "price": b["price"]}
                           for b in s["purchases"] if b["buyer"] == player]}

    # -- checks and figures --------------------------------------------------------

    def check_invariants(self) -> None:
        s = self.s
        n = len(self.setup.players)
        counters = s["counters"]
        assert sum(counters) == START_COUNTERS * n, "counters are conserved within a match"
        assert min(counters) >= 0, "no player holds fewer than 0 counters"
        ph = s["phase"]
        # The rest changes only when a turn or a match ends: checked then.
        if ph == TURN:
            assert 0 <= s["turns"] < ROUNDS * n, "a Force Vote comes after three rounds"
            assert len(set(s["round_pages"])) == len(s["round_pages"]), "no page twice in a round"
            self._check_camps(n)
        elif ph == VOTES and not s["cards"]:
            self._check_camps(n)
            kinds = [c["kind"] for c in s["challenges"]]
            assert s["writes"] == [c["page"] for c in s["challenges"] if c["kind"] == "write"]
            if "show" in kinds:
                assert "write" in kinds[:kinds.index("show")], "a card shown before any Write"
        elif ph == CAMPS or ph == OVER:
            assert len(s["history"]) == s["match"] - (0 if ph == OVER else 1)
            if s["history"]:
                h = s["history"][-1]
                assert h["cards"].count("sneak") == 1 and h["cards"][h["sneak"]] == "sneak"
                assert s["points"] == [sum(m["gains"][i] for m in s["history"]) for i in range(n)]

    def _check_camps(self, n: int) -> None:
        camps = self.s["camps"]
        sporks = _slip_sporks(n, self.setup.options["extra_camp"])
        foons = n - 1 - sporks
        if self.s["switches"] % 2:
            sporks, foons = foons, sporks
        assert camps.count(SNEAK) == 1 and camps.count(SPORK) == sporks and camps.count(FOON) == foons, \
            f"camps {camp_counts(camps)} do not match the slips"

    def stats(self) -> dict[str, float]:
        s = self.s
        h = s["history"]
        caught = 0
        right = 0
        for m in h:
            r = sum(1 for c in m["cards"] if c == m["sneak"])
            right += r
            caught += r * 2 > self.n - 1
        return {"score": float(max(s["points"])),
                "votes_called": float(sum(1 for m in h if not m["forced"])),
                "force_votes": float(sum(1 for m in h if m["forced"])),
                "sneak_called": float(sum(1 for m in h if m["caller"] is not None and m["caller"] == m["sneak"])),
                "sneak_caught": float(caught), "correct_guesses": float(right),
                "camp_switches": float(sum(m["switches"] for m in h)),
                "first_place_players": float(len(self.score()["winners"]))}

    def bot_input(self, prompt: Prompt, rng: Any) -> Input | None:
        # Bots that play sensibly (the generic uniform pick would call a vote a third of the
        # time and keep naming the wrong card); now and then a uniform pick, which may be
        # refused, so that simulations also exercise the rejections.
        if rng.random() < 0.003:
            return None
        s = self.s
        tag = prompt.tag
        if tag == "turn":
            p = prompt.player
            r = rng.random()
            if r < 0.1:
                return Input(CHOICE, "vote", p)
            if r < 0.3 and s["writes"] and s["counters"][p] > 0:
                return Input(CHOICE, "buy", p)
            return Input(CHOICE, "challenge", p)
        if tag == "page":
            page = rng.randint(FIRST_PAGE, LAST_PAGE)
            while page in s["round_pages"]:
                page = rng.randint(FIRST_PAGE, LAST_PAGE)
            return Input(NUMBER, page)
        if tag == "kind":
            r = rng.random()
            key = "flip" if r < 0.05 else "show" if r < 0.15 and s["writes"] else "write" if r < 0.55 else "act"
            if key in ("write", "act") and rng.random() < 0.15:
                key += "-switch"
            if key.startswith("act") and rng.random() < 0.2:
                key += "-counters"
            return Input(CHOICE, key, prompt.player)
        if tag == "giver" and rng.random() < 0.5:
            return Input(CHOICE, "done")
        if tag == "target":
            t = rng.randrange(self.n - 1)
            return Input(CHOICE, str(t if t < prompt.player else t + 1), prompt.player)
        if tag == "price":
            key = "2" if s["counters"][prompt.player] >= 2 and rng.random() < 0.5 else "1"
            return Input(CHOICE, key, prompt.player)
        if tag == "vote":
            v = prompt.player
            if s["camps"][v] == SNEAK:
                return Input(CHOICE, "sneak", v)
            return Input(CHOICE, rng.choice(prompt.options[1:]).key, v)
        return None


_HANDLERS = {ph: getattr(Sneak, "_on_" + ph) for ph in (HAT, CAMPS, TURN, PAGE, KIND, GIVER, RECEIVER,
                                                       TARGET, PRICE, CARD, VOTES)}

GAME = Sneak
