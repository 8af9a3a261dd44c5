package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/engine"
)

// Rules is the screen with the rules of both editions, in the app's words,
// one tab per edition.
type Rules struct {
	staticScreen

	// Tabs has one tab per edition, for tests.
	Tabs *container.AppTabs
}

// rulePart is one section of the rules: a heading and its text, with the
// text for each edition where the editions differ.
type rulePart struct {
	key, heading string
	text         string // both editions, or Classic when modern is set
	modern       string
}

// ruleParts are the rules, section by section. The keys name translations;
// edition-specific text is keyed rules.<key>.classic and .modern.
var ruleParts = []rulePart{
	{key: "aim", heading: "The aim",
		text: "Njet is a trick-taking game for teams that change every round. Before anyone plays a card, the players take turns saying no to the rules they do not want. What is left over decides who starts, how many cards are discarded, which colour is trump, which is supertrump and what each trick is worth. Whoever has the most points at the end wins."},
	{key: "cards", heading: "The cards",
		text:   "40 cards in four colours: red, black, blue and green. Each colour has two 1s and one card each from 2 to 9. With three players the four 2s leave the deck. Everyone gets 10 cards, or 12 with three players.",
		modern: "60 cards in four colours: blue, red, yellow and green. Each colour has three 1s and one card each from 2 to 13. With three players the 11s, 12s and 13s leave the deck. Hands are 15 cards with two or four players (with two, half the deck stays face down and unused), 16 with three and 12 with five."},
	{key: "board", heading: "The Njet board",
		text:   "The board has five rows: who starts (one field per character), discards (none, one or two cards), trump (one of the four colours), supertrump (one of the four colours, or none) and points per trick (1 to 4).",
		modern: "The board has five rows: who starts (one field per character), discards (none, one card, two cards, one card that is not a 1, or pass one card to the left), trump (one of the four colours), supertrump (one of the four colours, or none) and points per trick (1 to 4, or -2)."},
	{key: "njet", heading: "Saying no",
		text:   "After looking at their cards, the players take turns, starting left of the dealer, and each blocks one free field of the board. The last free field of a row can never be blocked, and nobody may pass. When each row has exactly one free field, those fields are the rules of the round. The fields of characters nobody plays are blocked from the start.",
		modern: "After looking at their cards, the players take turns, starting with the dealer, and each blocks one free field of the board. The last free field of a row can never be blocked, and nobody may pass. When each row has exactly one free field, those fields are the rules of the round. The fields of characters nobody plays are blocked from the start."},
	{key: "teams", heading: "Teams",
		text:   "The start player chooses the teams. With four players they pick a partner: two against two. With three they either play alone or pick a partner and leave the third player alone; the player alone scores double.",
		modern: "The start player chooses the teams. Two players play one against one. With three, the start player plays alone or picks a partner; the player alone takes the bonus card and scores double. With four it is two against two. With five the start player picks one or two partners, so that a team of three plays a team of two, and gives the bonus card to one player of the team of two, who scores double."},
	{key: "discard", heading: "Discarding",
		text:   "Then everyone discards at the same time, face down, as the board says: no card, one card or two. Discarded cards take no part in the round.",
		modern: "Then everyone acts at the same time, face down, as the board says: discard no card, one card, two cards, or one card that is not a 1 (with only 1s in hand, any card). Or everyone passes one card to the left neighbour; a card received cannot be passed on. Discarded cards take no part in the round."},
	{key: "tricks", heading: "Playing tricks",
		text: "The start player leads the first trick, and whoever wins a trick leads the next. You must follow the suit that was led if you can. If you cannot, you may play any card: you never have to play a trump. The 1s of the supertrump colour belong to the trump suit, not to their own colour."},
	{key: "win", heading: "Who wins a trick",
		text: "The last supertrump played wins the trick. With no supertrump in it, the highest trump wins; with no trump either, the highest card of the suit that was led. Cards of other colours never win. In every suit the 1 is the lowest card, and of two equal 1s the one played later counts higher."},
	{key: "loot", heading: "Loot",
		text: "Each 1 that a player of the losing team plays into a trick is loot for the team that wins the trick. A 1 played by the winning team itself is not loot."},
	{key: "score", heading: "Scoring",
		text:   "After the last trick each team adds its tricks and its loot and multiplies the sum by the points of the round. Every member of the team scores that much. With three players the player alone scores double.",
		modern: "After the last trick each team adds its tricks and its loot and multiplies the sum by the points of the round. Every member of the team scores that much, and the holder of the bonus card scores double. When a trick is worth -2, points are lost and totals can fall below zero."},
	{key: "end", heading: "End of the game",
		text:   "The deal moves one seat to the left each round. The game lasts 8 rounds with four players and 6 with three; the short game lasts 4 or 3. In this app you can also play to a target score, a house rule: the game ends after the round in which someone reaches it. The highest total wins; players with equal totals share the win.",
		modern: "The deal moves one seat to the left each round. The game lasts 8 rounds with two or four players, 9 with three and 10 with five. You can also play until someone reaches a target score, such as 100; the game ends after that round. The highest total wins; players with equal totals share the win."},
}

// ruleText is the text of part p for edition e, in the chosen language.
func ruleText(p rulePart, e engine.Edition) string {
	if p.modern == "" {
		return tr("rules."+p.key, p.text)
	}
	if e == engine.Modern {
		return tr("rules."+p.key+".modern", p.modern)
	}
	return tr("rules."+p.key+".classic", p.text)
}

// NewRules makes the rules screen.
func NewRules(a *App) *Rules {
	r := &Rules{}
	r.Tabs = container.NewAppTabs(
		container.NewTabItem(editionName(engine.Classic), rulesOf(engine.Classic)),
		container.NewTabItem(editionName(engine.Modern), rulesOf(engine.Modern)),
	)
	r.view = a.page(tr("rules.title", "Rules"), r.Tabs)
	return r
}

// rulesOf is the rules of edition e as a scrolling column of sections.
func rulesOf(e engine.Edition) fyne.CanvasObject {
	box := container.NewVBox()
	for _, p := range ruleParts {
		h := widget.NewLabelWithStyle(tr("rules."+p.key+".heading", p.heading), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		h.SizeName = theme.SizeNameSubHeadingText
		h.Wrapping = fyne.TextWrapWord
		t := widget.NewLabel(ruleText(p, e))
		t.Wrapping = fyne.TextWrapWord
		box.Add(h)
		box.Add(t)
	}
	box.Add(layoutSpacer(16))
	return column(box)
}
