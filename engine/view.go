package engine

// View is what seat may know now: the public state of the game and the
// seat's own hand, discards and pass. Its slices are fresh copies. For a
// seat outside the table it holds the public state only. A card chosen to
// pass stays in Hand (and in Passed) until every seat has chosen.
func (g *Game) View(seat int) View {
	rs := &g.rs
	v := View{
		Edition:    g.ed,
		Players:    g.n,
		Seat:       seat,
		Round:      g.round,
		Rounds:     g.rounds,
		Dealer:     g.dealer,
		Phase:      g.phase,
		Characters: append([]Character(nil), g.chars[:g.n]...),
		Board:      rs.board,
		Blocks:     append([]Block(nil), rs.blocks[:rs.nblocks]...),
		Bonus:      rs.bonus,
		Passed:     NoCard,
		Received:   NoCard,
		Turn:       g.Turn(),
		Waiting:    g.Waiting(),
		TricksWon:  rs.won,
		Loot:       rs.loot,
		Totals:     g.Totals(),
		HandSizes:  make([]int, g.n),
		Team:       make([]int, g.n),
		Voids:      append([]uint8(nil), rs.voids[:g.n]...),
	}
	if g.phase >= PhaseTeams {
		v.Rules = rs.rules
	}
	for s := 0; s < g.n; s++ {
		v.HandSizes[s] = rs.known[s].Len() + int(rs.unknown[s])
		v.Team[s] = int(rs.team[s])
	}
	if seat >= 0 && seat < g.n {
		v.Hand = rs.known[seat]
		v.Discarded = rs.discards[seat]
		v.Passed = rs.passes[seat]
		v.Received = rs.received[seat]
	}
	if g.phase == PhaseTricks {
		v.Trick = g.trickAt(rs.done)
	} else {
		v.Trick = Trick{Leader: -1, Winner: -1}
	}
	v.Tricks = g.appendTricks(nil)
	if rs.scored {
		sc := g.scoreOf()
		v.Score = &sc
	}
	return v
}

// trickAt builds trick k of the round, complete or under way.
func (g *Game) trickAt(k int) Trick {
	rs := &g.rs
	t := Trick{Leader: int(rs.leaders[k]), Winner: -1}
	from := k * g.n
	to := min(from+g.n, rs.nplays)
	for i := from; i < to; i++ {
		t.Plays = append(t.Plays, Play{Seat: (t.Leader + i - from) % g.n, Card: rs.plays[i]})
	}
	if k < rs.done {
		t.Winner = int(rs.winners[k])
		wt := rs.team[t.Winner]
		for _, p := range t.Plays {
			if p.Card.Value() == 1 && rs.team[p.Seat] != wt {
				t.Loot = append(t.Loot, p.Card)
			}
		}
	}
	return t
}

// appendTricks appends the completed tricks of the round.
func (g *Game) appendTricks(dst []Trick) []Trick {
	for k := 0; k < g.rs.done; k++ {
		dst = append(dst, g.trickAt(k))
	}
	return dst
}

// scoreOf is the score of the round so far.
func (g *Game) scoreOf() Score {
	return Score{
		Tricks: g.rs.won,
		Loot:   g.rs.loot,
		Points: append([]int(nil), g.rs.points[:g.n]...),
	}
}

// History is everything this engine saw of the current round, or of the
// round just finished at PhaseRoundOver and PhaseGameOver. Tricks holds the
// completed tricks; Score is meaningful once the round is scored.
func (g *Game) History() RoundHistory {
	rs := &g.rs
	h := RoundHistory{
		Round:    g.round,
		Dealer:   g.dealer,
		Dealt:    make([]Hand, g.n),
		Known:    make([]bool, g.n),
		Blocks:   append([]Block(nil), rs.blocks[:rs.nblocks]...),
		Bonus:    rs.bonus,
		Discards: make([]Hand, g.n),
		Passes:   make([]Card, g.n),
		Tricks:   g.appendTricks(nil),
		Score:    g.scoreOf(),
		Totals:   g.Totals(),
	}
	if g.phase >= PhaseTeams {
		h.Rules = rs.rules
	}
	all := true
	var dealt Hand
	for s := 0; s < g.n; s++ {
		h.Known[s] = rs.dealtKnown&(1<<s) != 0
		h.Dealt[s] = rs.dealt[s]
		h.Discards[s] = rs.discards[s]
		h.Passes[s] = rs.passes[s]
		all = all && h.Known[s]
		dealt |= rs.dealt[s]
		if rs.team[s] >= 0 {
			h.Teams[rs.team[s]] = append(h.Teams[rs.team[s]], s)
		}
	}
	if all {
		h.Unused = g.deck &^ dealt
	}
	return h
}
