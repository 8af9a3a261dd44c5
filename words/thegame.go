package words

import (
	"strconv"
	"strings"

	"github.com/njetlan/njet/thegame"
)

// The Game's phrases live in a catalogue of their own, every id under
// "thegame.", with their translations in translations/thegame.*.json; the
// lookup of msg.go reads both catalogues.

// TheGame is a phrase of The Game's screens by its id; args are name, value
// pairs for its placeholders. An id the catalogue does not hold gives a Msg
// with no text (the tests keep that from happening).
func TheGame(id string, args ...any) Msg { return msg(id, args...) }

// TheGameCount is a plural phrase of The Game for count n, which fills
// {{.Count}}.
func TheGameCount(id string, n int, args ...any) Msg {
	return plural(id, n, args...)
}

// CommandName is the short name of an Extreme command, e.g. "Skull".
func CommandName(k thegame.Command) Msg { return msg("thegame.command." + k.String()) }

// CommandRule says what an Extreme command orders, e.g. "cover it in the
// same turn, or the game is lost." (G-X3 to G-X9).
func CommandRule(k thegame.Command) Msg { return msg("thegame.command." + k.String() + ".rule") }

// CommandCards lists the cards that carry command k, e.g. "(cards 3, 27,
// 52, 76)", from the engine's fixed assignment (G-X1).
func CommandCards(k thegame.Command) Msg {
	var nums []string
	for _, c := range thegame.Assignment()[k] {
		nums = append(nums, strconv.Itoa(int(c)))
	}
	return msg("thegame.command.cards", "Cards", strings.Join(nums, ", "))
}

// Signal is what a signal says, in full: "Please leave this pile to me";
// for SignalNone, taking one's signal off (G-S1).
func Signal(s thegame.Signal) Msg { return msg("thegame.signal." + s.String()) }

// SignalShort is a signal as a pile shows it: "leave it to me". It is the
// full phrase for SignalNone.
func SignalShort(s thegame.Signal) Msg {
	if s == thegame.SignalNone {
		return Signal(s)
	}
	return msg("thegame.signal." + s.String() + ".short")
}

// Rating is the verdict on a result in our words (G-B8).
func Rating(r thegame.Rating) Msg {
	if id, ok := ratingIDs[r]; ok {
		return msg(id)
	}
	return msg("thegame.rating.play-on")
}

// ratingIDs are the message ids of the verdicts but "play on".
var ratingIDs = map[thegame.Rating]string{thegame.RatingWon: "thegame.rating.won",
	thegame.RatingExcellent: "thegame.rating.excellent", thegame.RatingLost: "thegame.rating.lost"}

// theGameCatalogue is every phrase of The Game in English, by id;
// translations/thegame.en.json is written from it (go test ./words
// -update).
var theGameCatalogue = map[string]entry{
	"thegame.bot.easy":                {other: "Easy: lays the smallest steps"},
	"thegame.bot.strong":              {other: "Strong: plans its turns and gives signals"},
	"thegame.card.command":            {other: "{{.Card}} ({{.Command}})"},
	"thegame.card.trick":              {other: "trick"},
	"thegame.command.cards":           {other: "(cards {{.Cards}})"},
	"thegame.command.draw-one":        {other: "Draw one"},
	"thegame.command.draw-one.rule":   {other: "draw only one card after a turn."},
	"thegame.command.no-talking":      {other: "No talking"},
	"thegame.command.no-talking.rule": {other: "no signals while it lies on top."},
	"thegame.command.no-trick":        {other: "No trick"},
	"thegame.command.no-trick.rule":   {other: "nobody may use the trick, on any pile."},
	"thegame.command.one-pile":        {other: "One pile"},
	"thegame.command.one-pile.rule":   {other: "all cards of a turn go on one pile."},
	"thegame.command.skull":           {other: "Skull"},
	"thegame.command.skull.rule":      {other: "cover it in the same turn, or the game is lost."},
	"thegame.command.stop":            {other: "Stop"},
	"thegame.command.stop.rule":       {other: "the turn ends at once, even as its first card."},
	"thegame.command.three":           {other: "3!"},
	"thegame.command.three.rule":      {other: "exactly 3 cards this turn; a stop only as the third."},
	"thegame.draw-pile":               {one: "Draw pile: 1 card", other: "Draw pile: {{.Count}} cards"},
	"thegame.drop-on-pile":            {other: "Let the card go on a pile, or tap a pile."},
	"thegame.end-turn":                {other: "End turn"},
	"thegame.fits-nowhere":            {other: "{{.Card}} fits no pile now. Choose another card."},
	"thegame.fits-nowhere.command":    {other: "{{.Card}} fits no pile now: {{.Reason}}"},
	"thegame.log.end":                 {other: "end"},
	"thegame.log.play":                {other: "{{.Card}} on {{.Pile}}"},
	"thegame.log.turn":                {other: "{{.Seat}}: {{.Moves}}"},
	"thegame.force.line":              {other: "{{.Piles}} · {{.Command}}: {{.Rule}}"},
	"thegame.force.turn":              {other: "{{.Command}}: {{.Rule}}"},
	"thegame.hands":                   {other: "Cards in hand: {{.Hands}}"},
	"thegame.hint.may-end":            {other: "Lay more cards, or end your turn."},
	"thegame.hint.more":               {one: "Lay at least 1 more card: tap a card, then a pile.", other: "Lay at least {{.Count}} more cards: tap a card, then a pile."},
	"thegame.hint.pile":               {other: "Now tap a pile for {{.Card}}."},
	"thegame.hint.stopped":            {other: "A stop ended your turn."},
	"thegame.hint.three":              {one: "“3!”: lay exactly 1 more card.", other: "“3!”: lay exactly {{.Count}} more cards."},
	"thegame.home.base":               {other: "base game"},
	"thegame.home.continue":           {one: "Continue: alone, {{.Variant}}", other: "Continue: {{.Count}} players, {{.Variant}}"},
	"thegame.home.extreme":            {other: "Extreme"},
	"thegame.home.play":               {other: "Play The Game"},
	"thegame.home.saved":              {one: "The saved game: 1 card still to play", other: "The saved game: {{.Count}} cards still to play"},
	"thegame.home.tagline":            {other: "Together against the deck: 1 to 5 players, with or without Extreme"},
	"thegame.home.title":              {other: "The Game"},
	"thegame.home.unreadable":         {other: "Continue the saved game"},
	"thegame.leave.no":                {other: "Keep playing"},
	"thegame.leave.text":              {other: "Leaving ends the game: it cannot be continued. To pause, close the app instead; the game is kept."},
	"thegame.leave.title":             {other: "Leave the game?"},
	"thegame.leave.yes":               {other: "Leave and end it"},
	"thegame.move.end":                {other: "{{.Seat}} ended the turn."},
	"thegame.move.end.you":            {other: "You ended your turn."},
	"thegame.move.play":               {other: "{{.Seat}} laid {{.Card}} on pile {{.Pile}}."},
	"thegame.move.play.you":           {other: "You laid {{.Card}} on pile {{.Pile}}."},
	"thegame.move.signal":             {other: "{{.Seat}} on pile {{.Pile}}: “{{.Signal}}”"},
	"thegame.over.broken":             {other: "Lost: the command “{{.Command}}” could not be kept"},
	"thegame.over.done":               {other: "Done"},
	"thegame.over.excellent":          {other: "Not won, but an excellent result"},
	"thegame.over.left":               {one: "Cards left: 1", other: "Cards left: {{.Count}}"},
	"thegame.over.lost":               {other: "The game beat you this time"},
	"thegame.over.title":              {other: "Game over"},
	"thegame.over.won":                {other: "You won: all 98 cards are down!"},
	"thegame.pick-first":              {other: "Choose a card of your hand first, then the pile."},
	"thegame.pile.down":               {other: "Pile {{.N}}: down from 100"},
	"thegame.pile.down.short":         {other: "Pile {{.N}}: down"},
	"thegame.pile.signal":             {other: "{{.Seats}}: {{.Signal}}"},
	"thegame.pile.trick":              {other: "Trick card: {{.Card}}"},
	"thegame.pile.trick-held":         {other: "Trick: your {{.Card}} fits"},
	"thegame.pile.up":                 {other: "Pile {{.N}}: up from 1"},
	"thegame.pile.up.short":           {other: "Pile {{.N}}: up"},
	"thegame.rating.excellent":        {other: "Fewer than 10 cards left: an excellent result."},
	"thegame.rating.lost":             {other: "A command could not be kept: the game is lost."},
	"thegame.rating.play-on":          {other: "10 or more cards left: the game won this time. Try again!"},
	"thegame.rating.won":              {other: "All 98 cards are down: you beat the game."},
	"thegame.reason.command":          {other: "That would break a command in force."},
	"thegame.reason.down":             {other: "{{.Card}} does not fit pile {{.Pile}}: it goes down from {{.Top}}, so it takes a lower card, or one exactly 10 higher."},
	"thegame.reason.no-trick":         {other: "“No trick” is in force: nobody may use the backwards trick."},
	"thegame.reason.one-pile":         {other: "“One pile” is in force: all cards of this turn go on the same pile."},
	"thegame.reason.other":            {other: "That move was refused: {{.Error}}"},
	"thegame.reason.over":             {other: "The game is over."},
	"thegame.reason.skull":            {other: "The skull must be covered in this turn."},
	"thegame.reason.stopped":          {other: "A stop has ended your turn."},
	"thegame.reason.three":            {other: "“3!”: this turn has its 3 cards; end it now."},
	"thegame.reason.three-more":       {other: "“3!”: this turn needs exactly 3 cards."},
	"thegame.reason.three-stop":       {other: "Under “3!” a stop may only be the third card."},
	"thegame.reason.too-few":          {one: "Play at least 1 more card before you end your turn.", other: "Play at least {{.Count}} more cards before you end your turn."},
	"thegame.reason.up":               {other: "{{.Card}} does not fit pile {{.Pile}}: it goes up from {{.Top}}, so it takes a higher card, or one exactly 10 lower."},
	"thegame.replay":                  {other: "Replay of the piles"},
	"thegame.replay.by-move":          {other: "Move by move"},
	"thegame.replay.by-pile":          {other: "Pile by pile"},
	"thegame.replay.chain":            {other: "Pile {{.N}}: {{.Cards}}"},
	"thegame.replay.start":            {one: "Before the first card: 1 card was laid in all.", other: "Before the first card: {{.Count}} cards were laid in all."},
	"thegame.replay.step":             {other: "Card {{.N}} of {{.Of}}: {{.Move}}"},
	"thegame.resume.bad":              {other: "The saved game of The Game cannot be continued and has been set aside"},
	"thegame.rules":                   {other: "Rules"},
	"thegame.rules.aim":               {other: "Everybody plays on the same side and wins or loses together. The aim is to lay all 98 cards, numbered 2 to 99, on four piles."},
	"thegame.rules.aim.heading":       {other: "Together against the deck"},
	"thegame.rules.end":               {other: "The game ends at once when the player on turn cannot lay the minimum. A player whose hand is empty once the draw pile is gone sits out; the others play on."},
	"thegame.rules.end.heading":       {other: "The end"},
	"thegame.rules.extreme":           {other: "In The Game Extreme, 28 cards carry a command, 4 cards for each of 7 commands. A command must be kept; one that can no longer be kept loses the game, and the app warns you before such a card."},
	"thegame.rules.extreme.heading":   {other: "Extreme"},
	"thegame.rules.lasting":           {other: "They hold for everybody while the card lies on top of a pile; several may hold at once:"},
	"thegame.rules.lasting.heading":   {other: "Commands on the piles"},
	"thegame.rules.one-turn":          {other: "They bind the player who lays the card, in that turn:"},
	"thegame.rules.one-turn.heading":  {other: "Commands for one turn"},
	"thegame.rules.piles":             {other: "Piles 1 and 2 go up from 1: a card laid on them must be higher than the top card. Piles 3 and 4 go down from 100: a card must be lower. Alone you hold 8 cards, two players hold 7 each, three to five players 6 each."},
	"thegame.rules.piles.heading":     {other: "The piles"},
	"thegame.rules.score":             {other: "The cards not laid, in the hands and the draw pile, are the score: fewer is better. All 98 laid beats the game; fewer than 10 left is an excellent result."},
	"thegame.rules.score.heading":     {other: "The score"},
	"thegame.rules.signals":           {other: "No numbers may be told. Instead you can put a signal on a pile: “please leave this pile to me” or “I can play well here”. Everybody sees it; it goes when your next turn begins."},
	"thegame.rules.signals.heading":   {other: "Signals"},
	"thegame.rules.title":             {other: "Rules of The Game"},
	"thegame.rules.trick":             {other: "A card exactly 10 below the top of a rising pile, or exactly 10 above the top of a falling pile, always fits. It wins room back, as often as you can use it. The table marks the cards that fit this way."},
	"thegame.rules.trick.heading":     {other: "The backwards trick"},
	"thegame.rules.turn":              {other: "Lay at least two cards, one after the other, on any piles; once the draw pile is empty, one is enough. You may lay more. When you end your turn, your hand is filled up again from the draw pile."},
	"thegame.rules.turn.heading":      {other: "Your turn"},
	"thegame.seat.cards":              {other: "{{.Seat}} {{.N}}"},
	"thegame.setup.bots":              {other: "Bots"},
	"thegame.setup.extreme":           {other: "Extreme: play with the command cards"},
	"thegame.setup.extreme-note":      {other: "28 cards carry a command such as stop, skull or “3!”, which must be kept."},
	"thegame.setup.intro":             {other: "A cooperative game: you and the bots play together against the deck of 98 cards."},
	"thegame.setup.play":              {other: "Deal the cards"},
	"thegame.setup.players":           {other: "Players (you and the bots)"},
	"thegame.setup.title":             {other: "The Game: new game"},
	"thegame.setup.variant":           {other: "Variant"},
	"thegame.signal":                  {other: "Signal"},
	"thegame.signal.cancel":           {other: "Cancel"},
	"thegame.signal.give":             {other: "Give it"},
	"thegame.signal.good":             {other: "I can play well here"},
	"thegame.signal.good.short":       {other: "I can play well"},
	"thegame.signal.mine":             {other: "Please leave this pile to me"},
	"thegame.signal.mine.short":       {other: "leave it to me"},
	"thegame.signal.muted":            {other: "“No talking” is in force: no signals now."},
	"thegame.signal.none":             {other: "Take my signal off"},
	"thegame.signal.pile":             {other: "Pile {{.N}}"},
	"thegame.signal.title":            {other: "A signal on a pile"},
	"thegame.lan.away":                {other: "Your device was away too long and the table went on without it: a bot on {{.Host}}'s device plays your seat now. Your device asks for it back at your next turn."},
	"thegame.lan.back":                {other: "Back with the table: it went on while this device was cut off, and what was played here alone meanwhile does not count."},
	"thegame.lan.gone":                {other: "{{.Name}} left the table: a bot on {{.Host}}'s device plays that seat now, and the cards not yet played are shuffled and dealt again."},
	"thegame.lan.gone.you":            {other: "{{.Name}} left the table: a bot on your device plays that seat now, and the cards not yet played are shuffled and dealt again."},
	"thegame.lan.yours":               {other: "Your seat is yours again: play on."},
	"thegame.lan.catching-up":         {other: "The game is over: the other devices are catching up."},
	"thegame.lan.halted":              {other: "The table stopped: {{.Err}}"},
	"thegame.lan.starting":            {other: "The table starts: the cards are shuffled and dealt…"},
	"thegame.lan.vote":                {other: "Vote for a bot"},
	"thegame.lan.vote-help":           {other: "{{.Name}}'s device has not been heard from for more than {{.Patience}} s. When every other player votes ({{.Votes}} of {{.Needed}} so far), a bot plays that seat and the cards not yet played are dealt again."},
	"thegame.lan.waiting":             {other: "Waiting for {{.Seat}}'s device for {{.S}} s."},
	"thegame.title":                   {other: "The Game"},
	"thegame.turn.away":               {other: "A bot is playing your seat"},
	"thegame.turn.dealing":            {other: "The cards are dealt"},
	"thegame.turn.drawing":            {other: "You draw your cards"},
	"thegame.turn.other":              {other: "{{.Seat}} is playing"},
	"thegame.turn.you":                {other: "Your turn"},
	"thegame.wait":                    {other: "Wait: it is {{.Seat}}'s turn."},
	"thegame.warn.command":            {other: "After this card the command “{{.Command}}” can no longer be kept, and the game is lost."},
	"thegame.warn.kept":               {other: "The card stays in your hand."},
	"thegame.warn.minimum":            {other: "After this card you could not finish your turn, and the game ends."},
	"thegame.warn.no":                 {other: "Take it back"},
	"thegame.warn.title":              {other: "Lay {{.Card}} on pile {{.Pile}}?"},
	"thegame.warn.yes":                {other: "Lay it anyway"},
}

// TheGameGone says that the device of seat name left a table of The Game
// and that a bot on host's device (this device's when you) plays the seat
// now, the cards not yet played dealt again.
func TheGameGone(name, host Msg, you bool) Msg {
	if you {
		return msg("thegame.lan.gone.you", "Name", name)
	}
	return msg("thegame.lan.gone", "Name", name, "Host", host)
}
