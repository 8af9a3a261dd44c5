package engine

// Allocation-free reads of the state, for search: a bot that plays many
// rounds to their end from one position reads these in its inner loop,
// where View, which copies slices, would dominate the cost.

// Held is every card known to be in seat's hand now (the whole hand when
// this engine dealt it), or 0 for a seat outside the table.
func (g *Game) Held(seat int) Hand {
	if seat < 0 || seat >= g.n {
		return 0
	}
	return g.rs.known[seat]
}

// TeamOf is seat's team (0 the start player's, 1 the other), or -1 before
// the teams are formed or for a seat outside the table.
func (g *Game) TeamOf(seat int) int {
	if seat < 0 || seat >= g.n {
		return -1
	}
	return int(g.rs.team[seat])
}

// BonusSeat is the seat whose points are doubled this round, or -1.
func (g *Game) BonusSeat() int { return g.rs.bonus }

// RoundPoints is what seat scored in the round, counted once the round is
// scored (PhaseRoundOver, PhaseGameOver); 0 before and for a seat outside
// the table.
func (g *Game) RoundPoints(seat int) int {
	if !g.rs.scored || seat < 0 || seat >= g.n {
		return 0
	}
	return g.rs.points[seat]
}

// TrickNow is the trick under way, as TrickState reports it.
type TrickNow struct {
	Leader int    // the seat that led, or -1 outside trick play
	Len    int    // cards played to it so far
	Led    Colour // the led suit (R-TRICK-1), when Len > 0
	Winner int    // the seat winning it so far, or -1 when Len is 0
	Best   Card   // the card winning it so far, or NoCard when Len is 0
	Ones   int    // 1s played to it so far (each is loot if its team loses the trick)
	Done   int    // completed tricks of the round
	Tricks int    // tricks in the round
}

// TrickState describes the trick under way without allocating.
func (g *Game) TrickState() TrickNow {
	rs := &g.rs
	t := TrickNow{Leader: -1, Winner: -1, Best: NoCard}
	if g.phase != PhaseTricks {
		return t
	}
	t.Leader = int(rs.leaders[rs.done])
	t.Len = rs.trickLen
	t.Done = rs.done
	t.Tricks = rs.tricks
	if t.Len == 0 {
		return t
	}
	t.Led = rs.led
	t.Winner = rs.bestSeat
	from := rs.nplays - rs.trickLen
	t.Best = rs.plays[from+(rs.bestSeat-t.Leader+g.n)%g.n]
	for _, c := range rs.plays[from:rs.nplays] {
		if c.Value() == 1 {
			t.Ones++
		}
	}
	return t
}
