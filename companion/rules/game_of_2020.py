"""The Game of 2020 (2 to 8 players): a roll-and-move race from "2020" to "2021!".

The companion is the board and the three decks (data in :mod:`game_of_2020_data`), so
nothing needs printing. As implemented:

* Setup: the Yay, Nay and Oy Vey decks are shuffled (three SHUFFLE inputs, in that order).
  Then every player rolls one die, in seat order; the lowest roll starts. Players tied on
  the lowest roll again (in seat order) until one is lowest. Play then goes to the left
  (seat order) from the starter.
* A turn: ROLL one die, MOVE that many spaces, DRAW a card of the colour of the space
  (green: Yay, red: Nay, yellow: Oy Vey), FOLLOW it. Yay: forward 3 or 5. Nay: back 4, or
  into the Pit of Despair. Oy Vey: back to the most recent yellow space behind you, or into
  the nearest Quarantine Bubble. The companion shows each card (event ``card``: month,
  text, action, the four LCD lines and the text for reading aloud).
* Decks: drawn from the top of the shuffled order (a SHUFFLE input lists the deck's cards,
  numbered in the deck's file order, top card first); a drawn card goes to the discard.
* Quarantine Bubble: into the first bubble on or before the halfway sign, the second after
  it. In the turn you arrive you roll to escape; 1-3 and you leave onto the bubble's exit
  space and your turn ends (no second roll, no card).
* Pit of Despair: you lose your next turn; on the turn after, you climb out onto the Pit's
  exit space and roll at once (that turn goes on as usual: move, draw, follow).
* Winning: the first piece to reach or pass the last space ("2021!") wins and the game
  ends at once, whether by a roll or a Yay card.

Readings where the rulebook is silent or ambiguous (each one tested):

* Reading: the "2020" start is space 0, not a playing space; the playing spaces are 1 to
  the last (64 on the reference board). Every piece starts on space 0.
* Reading: one card per turn. Only the space where the roll ends draws a card; a space a
  card moves you to draws nothing.
* Reading: the spaces that connect to a zone are the zone's colour, not a card colour:
  landing on one (by roll or card) draws nothing and sends you nowhere.
* Reading: moving back past the start stops on the start (space 0).
* Reading: "the most recent yellow space behind you" is the nearest yellow space with a
  lower number. On the first yellow space there is none: you stay (the rulebook's note).
* Reading: the nearest bubble is chosen by the space you are on when you draw the card:
  on or before the space the halfway sign stands after is "before" (the first bubble).
* Reading: the four quarantine turns count the turn you arrive as turn 1. Turns 1, 2 and
  3 each have one escape roll (1-3 frees you). At the start of turn 4 you are free without
  a roll: you step out onto the exit and that turn ends ("you do not roll again this
  turn"). So a quarantine takes at most four of your turns and three rolls.
* Reading: a lost turn (Pit) and the release turn of quarantine need no input; the
  companion announces them and moves on to the next player.
* Reading: while in a zone a piece counts as being on the zone's exit space (for the
  score and the leader).
* Reading: a deck is reshuffled when a card is needed and it is empty (a SHUFFLE prompt
  then, not earlier); all its cards are in the discard by then.
* Reading: a die reading that says it was entered by another player than the one whose
  roll is expected is refused.
* Reading: the rulebook gives no deck sizes or mixes. Each deck here has twelve cards,
  one per month of 2020 (texts our own): Yay 6 forward 3 and 6 forward 5; Nay 8 back 4
  and 4 into the Pit; Oy Vey 7 back to the last yellow and 5 into quarantine.
* Reading: the rolls for who starts are not moves; a tie among many names is announced
  by count (the prompts then name each player who rolls again).

A group's board: the ``board`` setup option takes the board itself as a JSON object (same
shape as ``game_of_2020_board.json``), never a file name, so a game's setup (and so its
journal) carries everything needed to replay it. Absent or ``None``: the 64-space reference
board. A bad board is refused with :class:`BadSetup` naming what to fix. It is not one of
the menu's ``options`` (a button menu cannot edit a board); give it in the Setup, e.g.
``Setup(names, {"board": {...}})`` or ``companion simulate game-of-2020 --option board=...``.
"""

from __future__ import annotations

from functools import cached_property
from operator import itemgetter
from typing import Any

from companion.rules.core import (DICE, SHUFFLE, BadSetup, Event, Game, IllegalInput, Input, Prompt,
                                  Setup)
from companion.rules.game_of_2020_data import (CARDS, DECK_NAMES, DECK_OF_COLOUR, DECKS, ZONE_NAMES,
                                               Board, BoardError, Card, board_for)

ESCAPE_MAX = 3          # a roll of 1-3 leaves quarantine
QUARANTINE_TURNS = 4    # the turn you arrive is turn 1; turn 4 frees you without a roll
SETBACK = 4             # a Nay card's "back 4"
BOARD_OPTION = "board"  # setup option: a group's board as a JSON object (None: the reference)
_CARD_NUMBERS = {d: frozenset(range(len(CARDS[d]))) for d in DECKS}
_STAGES = frozenset(("shuffle", "order", "play", "over"))
_PIECE = itemgetter("space", "zone", "qturn", "lose_turn")
_CARDS_HELD = itemgetter("cards")


class GameOf2020(Game):
    game_id = "game-of-2020"
    title = "The Game of 2020"
    min_players, max_players = 2, 8
    # No menu options: the one setting, ``board``, is a JSON object no button menu can edit,
    # so it is a setup option outside ``options`` (see check_setup).
    options = ()

    def __init__(self, setup: Setup, *, _state: dict | None = None):
        # A prompt depends only on the step and the player or deck: each is built once, when
        # first asked for, and reused (prompts are immutable); this keeps simulation fast.
        self._prompts: dict[tuple, Prompt] = {}
        super().__init__(setup, _state=_state)
        self._names = self.setup.players      # names by seat, for the hot paths

    @cached_property
    def board(self) -> Board:
        """The board in play: part of the setup (never read from a file), so replays agree."""
        return board_for(self.setup.options.get(BOARD_OPTION))

    @cached_property
    def _legal_pieces(self) -> frozenset:
        """Every (space, zone, quarantine turn, loses next turn) a piece may be in: on the
        track; in the Pit on its exit, about to lose a turn or not; in a bubble on its exit
        for turn 1, 2 or 3. A set, so the invariants check all pieces at C speed."""
        board = self.board
        legal = {(space, None, 0, False) for space in range(board.last + 1)}
        legal.update((board.exits["pit"], "pit", 0, lose) for lose in (False, True))
        legal.update((board.exits[z], z, turn, False) for z in ("bubble-1", "bubble-2")
                     for turn in range(1, QUARANTINE_TURNS))
        return frozenset(legal)

    @classmethod
    def check_setup(cls, setup: Setup) -> Setup:
        """The core checks, plus the ``board`` setup option: a board object, checked here."""
        for name in setup.options:
            if name != BOARD_OPTION:
                raise BadSetup(f"{cls.game_id} has no option {name!r} (its one setup option: board).")
        checked = super().check_setup(Setup(setup.players, {}))
        if setup.options.get(BOARD_OPTION) is None:
            return checked
        board = setup.options[BOARD_OPTION]
        try:
            board_for(board)
        except BoardError as e:
            raise BadSetup(str(e)) from None
        return Setup(checked.players, {**checked.options, BOARD_OPTION: board})

    # -- state -----------------------------------------------------------------------

    def start(self) -> None:
        self.s = {
            "stage": "shuffle",        # shuffle -> order -> play -> over
            "need": DECKS[0],          # the deck a SHUFFLE prompt is for
            "piles": {d: [] for d in DECKS},     # draw piles, top card first (card indices)
            "shuffles": {d: 0 for d in DECKS},
            "drawn": {d: 0 for d in DECKS},
            "rollers": list(range(self.n)),      # order stage: who rolls this round
            "rolls": [],                         # ... and their rolls so far
            "starter": None,
            "turn": None,              # whose turn it is (play stage)
            "step": "roll",            # roll | escape | reshuffle
            "players": [{"space": 0, "zone": None, "qturn": 0, "lose_turn": False, "turns": 0,
                         "cards": 0, "quarantines": 0, "pits": 0} for _ in range(self.n)],
            "last_card": None,
            "winner": None,
        }

    def _prompt(self) -> Prompt | None:
        s = self.s
        stage = s["stage"]
        if stage == "play":
            step = s["step"]
            key = (step, s["need"] if step == "reshuffle" else s["turn"])
        elif stage == "shuffle":
            key = ("shuffle", s["need"])
        elif stage == "order":
            key = ("order", s["rollers"][len(s["rolls"])])
        else:
            return None
        try:
            return self._prompts[key]
        except KeyError:
            prompt = self._prompts[key] = self._make_prompt(*key)
            return prompt

    def _make_prompt(self, tag: str, who: Any) -> Prompt:
        if tag in ("shuffle", "reshuffle"):
            return Prompt(SHUFFLE, f"{tag.capitalize()} the {DECK_NAMES[who]} deck",
                          count=len(CARDS[who]), tag=tag)
        text = {"roll": "roll 1 die", "escape": "roll 1-3 to leave", "order": "roll, lowest starts"}[tag]
        return Prompt(DICE, f"{self.name(who)}: {text}", player=who, count=1, tag=tag)

    # -- inputs ----------------------------------------------------------------------

    def _apply(self, inp: Input) -> list[Event]:
        prompt = self.prompt()
        assert prompt is not None
        if inp.kind == DICE and inp.player is not None and inp.player != prompt.player:
            other = self.name(inp.player) if type(inp.player) is int and 0 <= inp.player < self.n \
                else "another player"
            raise IllegalInput(f"It is {self.name(prompt.player)}'s roll, not {other}'s.")
        # Nothing below can be refused: every check is above this line.
        s = self.s
        if prompt.tag == "roll":
            return self._move_by_roll(s["turn"], inp.value[0])
        if prompt.tag == "escape":
            return self._escape_roll(s["turn"], inp.value[0])
        if prompt.tag == "order":
            return self._order_roll(inp.value[0])
        deck = s["need"]
        s["piles"][deck] = list(inp.value)
        s["shuffles"][deck] += 1
        if prompt.tag == "reshuffle":
            events = [Event("shuffle", f"{DECK_NAMES[deck]} deck reshuffled", data={"deck": deck})]
            s["step"] = "roll"
            return self._draw(s["turn"], deck, events)
        events = [Event("shuffle", f"{DECK_NAMES[deck]} deck shuffled", data={"deck": deck})]
        k = DECKS.index(deck) + 1
        if k < len(DECKS):
            s["need"] = DECKS[k]
        else:
            s["stage"] = "order"
        return events

    def _order_roll(self, value: int) -> list[Event]:
        s = self.s
        s["rolls"].append(value)
        if len(s["rolls"]) < len(s["rollers"]):
            return []
        low = min(s["rolls"])
        tied = [p for p, v in zip(s["rollers"], s["rolls"]) if v == low]
        if len(tied) > 1:
            s["rollers"], s["rolls"] = tied, []
            text = f"Tie on {low}: {', '.join(self.name(p) for p in tied)} roll again"
            if len(text) > 40:  # many or long names: the prompts name each roller anyway
                text = f"Tie on {low}: {len(tied)} players roll again"
            return [Event("tie", text, data={"roll": low, "players": tied})]
        starter = tied[0]
        s["stage"], s["starter"], s["turn"], s["step"] = "play", starter, starter, "roll"
        s["rollers"], s["rolls"] = [], []
        s["players"][starter]["turns"] = 1
        return [Event("starter", f"{self.name(starter)} starts (rolled {low})", player=starter,
                      data={"roll": low})]

    # The turn's steps append to one list of events, in the order they happen.

    def _move_by_roll(self, p: int, roll: int) -> list[Event]:
        me = self.s["players"][p]
        space = me["space"] + roll
        if space >= self.board.last:
            return self._win(p, space, [])
        me["space"] = space
        colour = self.board.colours[space]
        events = [Event("move", f"{self._names[p]} rolls {roll}: space {space} ({colour})", p,
                        data={"roll": roll, "space": space, "colour": colour})]
        deck = DECK_OF_COLOUR.get(colour)
        if deck is None:
            # A space that connects to a zone: nothing happens there (you escape from it).
            events.append(Event("safe", f"Space {space}: no card", p, data={"space": space}))
            return self._end_turn(events)
        return self._draw(p, deck, events)

    def _draw(self, p: int, deck: str, events: list[Event]) -> list[Event]:
        s = self.s
        pile = s["piles"][deck]
        if not pile:
            s["step"], s["need"] = "reshuffle", deck
            return events
        card = CARDS[deck][pile.pop(0)]
        s["drawn"][deck] += 1
        s["players"][p]["cards"] += 1
        s["last_card"] = {"deck": deck, "index": card.index, "player": p}
        events.append(Event("card", card.spoken, p, data=card.to_json()))
        return self._follow(p, card, events)

    def _follow(self, p: int, card: Card, events: list[Event]) -> list[Event]:
        me = self.s["players"][p]
        who, action, space = self._names[p], card.action, me["space"]
        if action in ("forward-3", "forward-5"):
            space += int(action[-1])
            if space >= self.board.last:
                return self._win(p, space, events)
            me["space"] = space
            text = f"{who} moves to space {space}"
        elif action == "back-4":
            me["space"] = space = max(0, space - SETBACK)
            text = f"{who} back to space {space}" if space else f"{who} back to the start"
        elif action == "last-yellow":
            back = self.board.prev_yellow[space]
            if back is None:
                text = f"{who}: first yellow, stay"
            else:
                me["space"] = space = back
                text = f"{who} back to space {space}"
        elif action == "pit":
            me.update(space=self.board.exits["pit"], zone="pit", lose_turn=True)
            me["pits"] += 1
            events.append(Event("pit", f"{who} falls in the Pit", p, data={"zone": "pit"}))
            return self._end_turn(events)
        else:  # quarantine: the escape roll comes at once, in this same turn
            zone = self.board.bubble_for(space)
            me.update(space=self.board.exits[zone], zone=zone, qturn=1)
            me["quarantines"] += 1
            self.s["step"] = "escape"
            events.append(Event("quarantine", f"{who} into {ZONE_NAMES[zone]}", p,
                                data={"zone": zone, "turn": 1}))
            return events
        events.append(Event("moved", text, p, data={"space": space}))
        return self._end_turn(events)

    def _escape_roll(self, p: int, roll: int) -> list[Event]:
        me = self.s["players"][p]
        who = self._names[p]
        if roll <= ESCAPE_MAX:
            me.update(zone=None, qturn=0)
            event = Event("escape", f"{who} rolls {roll}: out to space {me['space']}", p,
                          data={"roll": roll, "space": me["space"]})
        else:
            event = Event("stay", f"{who} rolls {roll}: still in ({me['qturn']} of {QUARANTINE_TURNS})",
                          p, data={"roll": roll, "turn": me["qturn"]})
        return self._end_turn([event])

    def _end_turn(self, events: list[Event]) -> list[Event]:
        """Pass the turn to the left, playing out the turns that need no input."""
        s = self.s
        while True:
            p = s["turn"] = (s["turn"] + 1) % len(self._names)
            me = s["players"][p]
            me["turns"] += 1
            who, zone = self._names[p], me["zone"]
            if zone == "pit":
                if me["lose_turn"]:
                    me["lose_turn"] = False
                    events.append(Event("lost-turn", f"{who} loses this turn (Pit)", p))
                    continue
                me["zone"] = None
                events.append(Event("pit-exit", f"{who} climbs out: space {me['space']}", p,
                                    data={"space": me["space"]}))
                s["step"] = "roll"
                return events
            if zone is not None:
                me["qturn"] += 1
                if me["qturn"] >= QUARANTINE_TURNS:
                    me.update(zone=None, qturn=0)
                    events.append(Event("release", f"{who} free after {QUARANTINE_TURNS} turns: "
                                        f"space {me['space']}", p, data={"space": me["space"]}))
                    continue
                s["step"] = "escape"
                return events
            s["step"] = "roll"
            return events

    def _win(self, p: int, space: int, events: list[Event]) -> list[Event]:
        s = self.s
        last = self.board.last
        s["players"][p]["space"] = last
        s["stage"], s["winner"] = "over", p
        extra = "" if space == last else " Happy New Year!"
        events.append(Event("winner", f"{self.name(p)} reaches 2021!{extra}", p,
                            data={"space": last, "passed": space - last}))
        return events

    # -- views -----------------------------------------------------------------------

    def _where(self, me: dict) -> str:
        return ZONE_NAMES[me["zone"]] if me["zone"] else f"space {me['space']}"

    def score(self) -> dict:
        s = self.s
        points = {self.name(i): me["space"] for i, me in enumerate(s["players"])}
        winner = s["winner"]
        if winner is not None:
            who, tail = self.name(winner), " wins 2021!"
        else:
            who = self.name(max(range(self.n), key=lambda i: s["players"][i]["space"]))
            tail = f" {points[who]}/{self.board.last}"
        # A long name is cut, never the figures: the line is 20 characters.
        return {"text": who[:20 - len(tail)] + tail, "points": points,
                "winners": [] if winner is None else [self.name(winner)],
                "where": {self.name(i): self._where(me) for i, me in enumerate(s["players"])},
                "last_space": self.board.last}

    def public_view(self) -> dict:
        s = self.s
        return {
            "board": self.board.name, "last_space": self.board.last, "halfway": self.board.halfway,
            "stage": s["stage"],
            "turn": None if s["turn"] is None else self.name(s["turn"]),
            "starter": None if s["starter"] is None else self.name(s["starter"]),
            "order_rolls": {self.name(p): v for p, v in zip(s["rollers"], s["rolls"])},
            "players": [{"name": self.name(i), "space": me["space"], "zone": me["zone"],
                         "where": self._where(me), "quarantine_turn": me["qturn"],
                         "loses_next_turn": me["lose_turn"], "cards": me["cards"]}
                        for i, me in enumerate(s["players"])],
            # How many cards are left, never their order: the order is the future.
            "decks": {d: {"left": len(s["piles"][d]), "size": len(CARDS[d])} for d in DECKS},
            "last_card": self._last_card(),
            "winner": None if s["winner"] is None else self.name(s["winner"]),
        }

    def _last_card(self) -> dict | None:
        """The card drawn last (shown until the next one), with who drew it."""
        last = self.s["last_card"]
        if last is None:
            return None
        card = CARDS[last["deck"]][last["index"]]
        return dict(card.to_json(), player=self.name(last["player"]))

    def check_invariants(self) -> None:
        s, board = self.s, self.board
        stage, last = s["stage"], board.last
        assert stage in _STAGES, stage
        drawn = 0
        for d, numbers in _CARD_NUMBERS.items():
            pile, done, size = s["piles"][d], s["drawn"][d], len(numbers)
            # Cards are conserved: every card dealt by a shuffle is either drawn or still there.
            assert done + len(pile) == s["shuffles"][d] * size, f"{d} not conserved"
            # A full pile (just shuffled) holds each card once; after that cards only leave it.
            assert len(pile) < size or numbers.issuperset(pile) and len(set(pile)) == size, pile
            drawn += done
        players = s["players"]
        pieces = list(map(_PIECE, players))
        if not self._legal_pieces.issuperset(pieces):
            bad = [piece for piece in pieces if piece not in self._legal_pieces]
            raise AssertionError(f"pieces in impossible states (space, zone, turn, lose turn): {bad}")
        held = sum(map(_CARDS_HELD, players))
        at_end = pieces.count((last, None, 0, False))
        assert held == drawn, "every drawn card was drawn by someone"
        assert (stage == "over") == (s["winner"] is not None) == (at_end == 1), \
            "the game is over when the winner, alone, stands on the last space"
        if stage == "order":
            assert len(s["rolls"]) < len(s["rollers"]) and set(s["rollers"]) <= set(range(self.n))
        elif stage == "play":
            me, step = s["players"][s["turn"]], s["step"]
            if step == "escape":
                assert me["zone"] in ("bubble-1", "bubble-2"), me
            else:
                assert me["zone"] is None, me
            if step == "reshuffle":
                assert not s["piles"][s["need"]]
                assert DECK_OF_COLOUR[board.colours[me["space"]]] == s["need"]

    def stats(self) -> dict[str, float]:
        s = self.s
        players = s["players"]
        winner = s["winner"]
        return {
            "score": float(players[winner]["turns"]) if winner is not None else 0.0,  # turns to win
            "turns": float(sum(me["turns"] for me in players)),
            "cards": float(sum(s["drawn"].values())),
            "quarantines": float(sum(me["quarantines"] for me in players)),
            "pits": float(sum(me["pits"] for me in players)),
            "reshuffles": float(sum(s["shuffles"].values()) - sum(1 for v in s["shuffles"].values() if v)),
        }

    def board_view(self) -> dict[str, Any]:
        """The whole board in use (for screens drawing it), in the board-data shape."""
        return self.board.to_json()


GAME = GameOf2020
