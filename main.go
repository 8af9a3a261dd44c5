// Command njet plays Njet! and The Game on a LAN, in a terminal, or
// between bots.
//
// Usage:
//
//	njet                  opens the app (a window; see main_gui.go)
//	njet <command> [flags]
//
// The commands are package internal/cli's; this package only opens the
// window, which needs cgo and GL, and holds the platform's multicast lock.
package main

import (
	"os"
	"time"

	"github.com/njetlan/njet/internal/cli"
)

// processStart is as close to the start of the process as Go code gets;
// the app's first-frame figure counts from here.
var processStart = time.Now()

// openWindow opens the app's window; main_gui.go sets it. Built with the
// nogui tag it stays nil, and njet without a command prints the usage.
var openWindow cli.Window

func main() {
	os.Exit(cli.Main(os.Args[1:], openWindow))
}
