package term

import (
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// defaultWidth is the width text is wrapped to when the terminal does not
// tell its own.
const defaultWidth = 80

// widthOf is the width of the terminal out writes to: what the terminal
// tells (ioctl), else $COLUMNS, else defaultWidth.
func widthOf(out io.Writer) int {
	if f, ok := out.(*os.File); ok {
		if w := ttyWidth(f); w > 0 {
			return w
		}
	}
	if w, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && w > 0 {
		return w
	}
	return defaultWidth
}

// wrap breaks one line (no line end) at spaces so that no piece is wider
// than width; the pieces after the first are indented to hang under the
// line's text: under a choice's label for "  12) ..." lines, two spaces
// deeper than the line otherwise. A word longer than the width stays whole.
func wrap(line string, width int) []string {
	if width < 20 || utf8.RuneCountInString(line) <= width {
		return []string{line}
	}
	indent := len(line) - len(strings.TrimLeft(line, " "))
	hang := indent + 2
	rest := line[indent:]
	if i := strings.Index(rest, ") "); i > 0 && i <= 3 && strings.Trim(rest[:i], "0123456789") == "" {
		hang = indent + i + 2
	}
	if hang > width/2 {
		hang = width / 2
	}
	var out []string
	cur := line[:indent]
	curLen := indent
	for i, word := range strings.Split(line[indent:], " ") {
		n := utf8.RuneCountInString(word)
		switch {
		case i == 0:
			cur += word
			curLen += n
		case curLen+1+n > width && strings.TrimSpace(cur) != "":
			out = append(out, strings.TrimRight(cur, " "))
			cur = strings.Repeat(" ", hang) + word
			curLen = hang + n
		default:
			cur += " " + word
			curLen += 1 + n
		}
	}
	return append(out, strings.TrimRight(cur, " "))
}
