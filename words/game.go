package words

import (
	"github.com/njetlan/njet/engine"
)

// You is the person the front end speaks to. Phrases about this seat take
// their own form ("You play red 7", not "You plays red 7").
func You() Msg { return msg("seat.you") }

// IsYou reports whether m names the person the front end speaks to.
func IsYou(m Msg) bool { return m.ID == "seat.you" }

// BotNames are the names of the bots at a local game, in seat order after
// the person's seat: the same in every language and in every front end.
var BotNames = []string{"Ada", "Boris", "Clara", "Dmitri"}

// LocalNames returns the seats' names of a local game of players seats
// with the person in seat 0: "" for the person, whom each front end calls
// in its own words ("You"), then BotNames.
func LocalNames(players int) []string {
	return append([]string{""}, BotNames[:max(0, min(players-1, len(BotNames)))]...)
}

// Bot names the bot in seat n: "Bot 2".
func Bot(n int) Msg { return msg("seat.bot", "N", n) }

// SeatNumber names a seat by its number: "Seat 2".
func SeatNumber(n int) Msg { return msg("seat.number", "N", n) }

// BotForYou names the bot that plays the person's seat after the table
// handed it over.
func BotForYou() Msg { return msg("seat.bot-for-you") }

// WithCharacter adds a seat's character to its name: "Bot 2 (Wolf)".
func WithCharacter(seat Msg, ed engine.Edition, c engine.Character) Msg {
	return msg("seat.with-character", "Seat", seat, "Character", Character(ed, c))
}

// Seats says who sits where at a table: the number of players and the
// front end's name for each seat.
type Seats struct {
	Players int
	Name    func(seat int) Msg
}

// name is the name of seat s, counted around the table.
func (t Seats) name(s int) Msg {
	if t.Name == nil || t.Players <= 0 {
		return Plain("?")
	}
	return t.Name(((s % t.Players) + t.Players) % t.Players)
}

// Edition names an edition: "Classic", "Modern".
func Edition(ed engine.Edition) Msg {
	if ed == engine.Modern {
		return msg("edition.modern")
	}
	return msg("edition.classic")
}

// Colour names a card colour: "red".
func Colour(c engine.Colour) Msg { return named(colourIDs, c) }

// colourIDs are the message ids of the colours.
var colourIDs = map[engine.Colour]string{engine.Red: "colour.red", engine.Black: "colour.black",
	engine.Blue: "colour.blue", engine.Green: "colour.green", engine.Yellow: "colour.yellow"}

// named is the message of id[k], or "?" for a value without one.
func named[K comparable](ids map[K]string, k K) Msg {
	if id, ok := ids[k]; ok {
		return msg(id)
	}
	return Plain("?")
}

// Suit names a suit under the rules of a round: the trump suit (its colour
// and the supertrumps) or a colour.
func Suit(ed engine.Edition, colour engine.Colour) Msg {
	_ = ed // the colour names are shared by both editions
	return msg("suit.colour", "Colour", Colour(colour))
}

// TrumpSuit names the trump suit as a whole.
func TrumpSuit() Msg { return msg("suit.trump") }

// Card names a card: "red 7". Equal 1s share their name.
func Card(c engine.Card) Msg {
	if !c.Valid() {
		return msg("card.none")
	}
	return msg("card", "Colour", Colour(c.Colour()), "Value", c.Value())
}

// Cards names cards as a list, skipping NoCard: "red 7 and blue 3".
func Cards(cards []engine.Card) Msg {
	var items []Msg
	for _, c := range cards {
		if c != engine.NoCard {
			items = append(items, Card(c))
		}
	}
	return List(items)
}

// Character names a character: "Bear".
func Character(ed engine.Edition, c engine.Character) Msg {
	_ = ed // the characters of both editions have distinct names
	return named(characterIDs, c)
}

// characterIDs are the message ids of the characters of both editions.
var characterIDs = map[engine.Character]string{engine.Bear: "character.bear", engine.Wolf: "character.wolf",
	engine.Falcon: "character.falcon", engine.Dove: "character.dove", engine.Eagle: "character.eagle",
	engine.Tiger: "character.tiger", engine.Crane: "character.crane"}

// Row names a row of the Njet board: "Start player", "Supertrump".
func Row(ed engine.Edition, r engine.Row) Msg {
	_ = ed
	return named(rowIDs, r)
}

// rowIDs are the message ids of the rows of the board.
var rowIDs = map[engine.Row]string{engine.RowStart: "row.start", engine.RowDiscard: "row.discard",
	engine.RowTrump: "row.trump", engine.RowSuper: "row.super", engine.RowPoints: "row.points"}

// discardIDs are the id tails of the discard fields, in board order.
var discardIDs = [...]string{"njet", "one", "two", "one-not-one", "pass-left"}

// Field names a field of the board as the board shows it: a character, a
// discard rule in short ("pass 1 to the left"), a colour, "none" on the
// supertrump row, a points value.
func Field(ed engine.Edition, r engine.Row, f engine.Field) Msg {
	if int(f) >= ed.Fields(r) {
		return Plain("?")
	}
	switch r {
	case engine.RowStart:
		return Character(ed, ed.Characters()[f])
	case engine.RowDiscard:
		return msg("field.discard." + discardIDs[f])
	case engine.RowTrump:
		return Colour(ed.Colours()[f])
	case engine.RowSuper:
		if f == engine.SuperNjet {
			return msg("field.super.njet")
		}
		return Colour(ed.Colours()[f])
	case engine.RowPoints:
		return plural("field.points", engine.PointsValue(f), "Value", engine.PointsValue(f))
	}
	return Plain("?")
}

// FieldHeld names a start-row field with the seat holding its character:
// "Wolf (Bot 1)".
func FieldHeld(ed engine.Edition, f engine.Field, holder Msg) Msg {
	return msg("field.character-held", "Character", Field(ed, engine.RowStart, f), "Seat", holder)
}

// DiscardRule says what a discard rule asks of every player: "everyone
// discards 1 card, not a 1".
func DiscardRule(ed engine.Edition, d engine.DiscardRule) Msg {
	if int(d) >= ed.Fields(engine.RowDiscard) {
		return Plain("?")
	}
	return msg("rule.discard." + discardIDs[d])
}

// Points says what a trick and a loot card are worth this round.
func Points(v int) Msg { return plural("rule.points", v, "Value", v) }

// RulesOfRound words the free fields once the Njet phase is over, one
// phrase per row: the start player (named by start), the discard rule,
// trump, supertrump and points.
func RulesOfRound(ed engine.Edition, r engine.Rules, start Msg) []Msg {
	super := msg("rule.super.none")
	if r.Super != engine.NoColour {
		super = msg("rule.super", "Colour", Colour(r.Super))
	}
	return []Msg{
		msg("rule.start", "Seat", start),
		DiscardRule(ed, r.Discard),
		msg("rule.trump", "Colour", Colour(r.Trump)),
		super,
		Points(r.Points),
	}
}

// RulesLine is the rules of the round in one sentence.
func RulesLine(ed engine.Edition, r engine.Rules, start Msg) Msg {
	return msg("rules.of-round", "Rules", Join(RulesOfRound(ed, r, start), "; "))
}

// you picks the phrase for the person when who names them.
func you(id string, who Msg) string {
	if IsYou(who) {
		return id + ".you"
	}
	return id
}

// Discarded words another seat's discard of n cards, unseen: "Bot 2
// discards 2 cards.".
func Discarded(seat, n int, seats Seats) Msg {
	return plural("action.discard", n, "Seat", seats.name(seat))
}

// Action words a move as it happens: "Bot 2 blocks Trump: red.", "You
// discard red 7.", "Bot 1 passes a card to You.". Cards of other seats'
// discards and passes are never named.
func Action(ed engine.Edition, a engine.Action, seats Seats) Msg {
	who := seats.name(a.Seat)
	switch a.Kind {
	case engine.ActDeal:
		n := a.Hand.Len()
		if a.Hidden {
			n = ed.HandSize(seats.Players)
		}
		return msg(you("action.deal", who), "Seat", who, "Count", n)
	case engine.ActBlock:
		return msg(you("action.block", who), "Seat", who, "Row", Row(ed, a.Row), "Field", Field(ed, a.Row, a.Field))
	case engine.ActTeam:
		var team, others []Msg
		for s := 0; s < seats.Players; s++ {
			if s == a.Seat || a.Partners&(1<<s) != 0 {
				team = append(team, seats.name(s))
			} else {
				others = append(others, seats.name(s))
			}
		}
		return msg(you("action.team", who), "Seat", who, "Team", Join(team, " + "), "Others", Join(others, " + "))
	case engine.ActDiscard:
		if IsYou(who) && !a.Hidden {
			return msg("action.discard.you", "Cards", Cards(a.Cards[:]))
		}
		n := 1
		if a.Cards[1] != engine.NoCard {
			n = 2
		}
		return plural("action.discard", n, "Seat", who)
	case engine.ActPass:
		to := seats.name(a.Seat + 1)
		if IsYou(who) && !a.Hidden {
			return msg("action.pass.you", "Card", Card(a.Card), "To", to)
		}
		if IsYou(to) {
			return msg("action.pass.to-you", "Seat", who)
		}
		return msg("action.pass", "Seat", who, "To", to)
	case engine.ActPlay:
		return msg(you("action.play", who), "Seat", who, "Card", Card(a.Card))
	}
	return msg("reason.bad")
}

// Received tells the person which card the right neighbour passed them.
func Received(c engine.Card, from Msg) Msg {
	return msg("action.received.you", "Card", Card(c), "From", from)
}

// WinReason says why a card took a trick.
func WinReason(w engine.Win) Msg {
	switch {
	case w.Why == engine.WinSuper && w.Tie:
		return msg("win.super.last")
	case w.Why == engine.WinSuper:
		return msg("win.super")
	case w.Tie:
		return msg("win.tie")
	case w.Why == engine.WinTrump:
		return msg("win.trump")
	}
	return msg("win.led")
}

// TrickWon tells who took trick n (1-based), with which card and why, and
// the loot: "Bot 2 takes trick 2 with blue 1 (supertrump).".
func TrickWon(who Msg, n int, w engine.Win, loot []engine.Card) Msg {
	id := "trick.won"
	if len(loot) > 0 {
		id = "trick.won.loot"
	}
	return msg(you(id, who), "Seat", who, "N", n, "Card", Card(w.Card), "Why", WinReason(w), "Loot", Cards(loot))
}

// Gone says that the device of seat name left the table mid-round and
// what became of the round: kept, the seat's cards opened for the bot on
// host's device (you when that is this device), or dealt again at once.
func Gone(name, host Msg, kept, you bool) Msg {
	switch {
	case kept && name.ID == "":
		return msg("gone.kept.yours", "Host", host)
	case kept && you:
		return msg("gone.kept.you", "Name", name)
	case kept:
		return msg("gone.kept", "Name", name, "Host", host)
	}
	return msg("gone.redeal", "Name", name, "Host", host)
}
