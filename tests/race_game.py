"""A tiny game for testing the machinery (rules base, Table, journal) apart from any rulebook."""

from companion.rules.core import DICE, Event, Game, GameOption, IllegalInput, Prompt, choice


class RaceToTwenty(Game):
    """A tiny game for testing the base class: roll two dice, keep or pass, first to 20."""

    game_id = "race"
    title = "Race to 20"
    min_players, max_players = 2, 4
    options = (GameOption("target", "int", 20, "points to win", low=10, high=1000),)

    def start(self):
        self.s = {"turn": 0, "totals": [0] * self.n, "stage": "roll", "pending": 0}

    def _prompt(self):
        if max(self.s["totals"]) >= self.setup.options["target"]:
            return None
        p = self.s["turn"]
        if self.s["stage"] == "roll":
            return Prompt(DICE, f"{self.name(p)}: roll 2 dice", player=p, count=2)
        return choice("Keep them?", [("keep", "Keep"), ("pass", "Pass")], player=p)

    def _apply(self, inp):
        if inp.kind == "dice":
            if inp.value == (6, 6):
                raise IllegalInput("Double six is void in this race: roll again.")
            self.s["pending"] = sum(inp.value)
            self.s["stage"] = "keep"
            return [Event("rolled", f"rolled {self.s['pending']}")]
        if inp.value == "keep":
            self.s["totals"][self.s["turn"]] += self.s["pending"]
        self.s["stage"] = "roll"
        self.s["turn"] = (self.s["turn"] + 1) % self.n
        return []

    def score(self):
        return {"text": "", "points": dict(zip(self.players, self.s["totals"])), "winners": []}

    def public_view(self):
        return dict(self.s)


class SloppyRace(RaceToTwenty):
    """Breaks the contract: changes the state and only then rejects the input."""

    def _apply(self, inp):
        if inp.kind == "dice":
            self.s["pending"] = sum(inp.value)
            if inp.value == (6, 6):
                raise IllegalInput("void")
        return super()._apply(inp)


GAME = RaceToTwenty
