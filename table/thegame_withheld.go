package table

// A seat silent at its reveal, after the game of The Game (docs/protocol.md,
// "A withheld reveal at a table of The Game"). The play is over and its
// result is public, but only the reveals let the others check what was
// hidden: every draw went to the seat the rules name, and every Stuck and
// every turn ended by a seat's own word was true of its hand. Without the
// silent seat's secrets the round cannot be audited, so the table does
// not deal again (there is nothing left to play) and does not wait for
// ever: the VoidSilent ends the game, with the public result recorded as
// not verified and the silent seat named.

// applyWithheld ends the game after a takeover during the reveals. With
// three seats or more the certificate holds the votes of every other seat
// that is still there, so the silence is recorded as a cheat, as at a Njet
// table (CheckWithheld); at two seats the one other seat could have voted
// right after its own reveal, so the seat is named as silent only.
func (g *TheGame) applyWithheld(v *Violation) {
	if g.n > 2 {
		v.Check, v.Err = CheckWithheld, ErrWithheld
	}
	g.withheld = v
	g.st = stOver
}

// Unverified returns, for a game that ended without its audit because a
// seat stayed silent at its reveal, the violation naming that seat (it is
// also among Takeovers); nil otherwise. The game is Over then, and Result
// reports no audited result: Claimed has the public one.
func (g *TheGame) Unverified() *Violation {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.withheld
}

// Claimed returns the result the public play gives, once the play is
// over: the cards left, won and the command broken, as the table counted
// them before the reveals. Unlike Result it is not audited.
func (g *TheGame) Claimed() (TheGameResult, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gen == nil || g.st < stReveal || g.halt != nil {
		return TheGameResult{}, false
	}
	return TheGameResult{Config: g.gen.TheGameConfig(), Result: g.result, Turns: g.turns}, true
}
