package words

// DeviceLeft says that name's device has left the table and a bot plays
// the seat now: the takeover of a device gone, in a person's words.
func DeviceLeft(name Msg) Msg { return msg("device.left", "Name", name) }

// YourDeviceLeft tells a person whose own device was away too long that
// the table went on, with a bot hosted by host's device in their seat.
func YourDeviceLeft(host Msg) Msg { return msg("device.left.you", "Host", host) }

// DeviceLeftAtTwo says that name's device has left a table of two, which
// ends without a winner.
func DeviceLeftAtTwo(name Msg) Msg { return msg("device.left.two", "Name", name) }

// RevealWithheld says that name's device, there all along, would not show
// its cards after the play (a withheld reveal, a cheat).
func RevealWithheld(name Msg) Msg { return msg("device.withheld", "Name", name) }

// Thinking says that the table waits for name, whose device is there.
func Thinking(name Msg) Msg { return msg("device.thinking", "Name", name) }

// DeviceAway says how long name's device has shown no sign of life.
func DeviceAway(name Msg, seconds int) Msg {
	return msg("device.away", "Name", name, "Seconds", seconds)
}

// DealtAgain says that the voided round is dealt again.
func DealtAgain() Msg { return msg("round.again") }

// ClockMove tells a person how long the table's clock gives them for the
// move asked now, after which their bot makes it.
func ClockMove(seconds int) Msg { return msg("clock.move", "Seconds", seconds) }

// ClockLeft tells a person how long is left of their time for the move.
func ClockLeft(seconds int) Msg { return msg("clock.left", "Seconds", seconds) }

// ClockOut tells a person that their time ran out and their bot moved for
// them; the seat is still theirs.
func ClockOut() Msg { return msg("clock.out") }

// CutOff tells a person that their device has heard none of the others
// for seconds: most likely its own network is down.
func CutOff(seconds int) Msg { return msg("device.cutoff", "Seconds", seconds) }
