package main

// clocale runs before fyne's lang package is initialised, so that no run
// of njet, a terminal command included, logs a locale error under
// LANG=C.UTF-8 (see the package).
import _ "github.com/njetlan/njet/internal/clocale"
