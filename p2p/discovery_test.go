package p2p

import (
	"net"
	"strconv"
	"strings"
	"testing"
)

// presentTXT writes s as a browser's DNS library hands a TXT string over
// (presentation form): a byte outside printable ASCII as \DDD, '"' and
// '\' with a backslash before them.
func presentTXT(s string) string {
	var b strings.Builder
	for i := range len(s) {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < ' ' || c > '~':
			b.WriteByte('\\')
			d := strconv.Itoa(int(c))
			b.WriteString(strings.Repeat("0", 3-len(d)) + d)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func TestUnescapeTXT(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"plain", "name=Kitchen table", "name=Kitchen table"},
		{"umlaut", `name=K\195\188che & Co`, "name=Küche & Co"},
		{"quote", `name=The \"best\" table`, `name=The "best" table`},
		{"backslash", `name=a\\b`, `name=a\b`},
		{"cyrillic", `name=\208\144\208\189\208\189\208\176`, "name=Анна"},
		{"chinese", `name=\230\157\142\233\155\183`, "name=李雷"},
		{"emoji", `name=\240\159\131\143`, "name=🃏"},
		{"quoted other character", `a\;b`, "a;b"},
		{"zero byte", `a\000b`, "a\x00b"},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := unescapeTXT(c.in)
			if err != nil || got != c.want {
				t.Fatalf("unescapeTXT(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
			if c.want != "" && presentTXT(c.want) != c.in && !strings.Contains(c.in, `\;`) {
				t.Fatalf("the test's presentation of %q is %q, not %q", c.want, presentTXT(c.want), c.in)
			}
		})
	}
}

func TestUnescapeTXTRefuses(t *testing.T) {
	cases := []struct{ name, in string }{
		{"backslash at the end", `name=abc\`},
		{"two digits", `name=K\19`},
		{"two digits then a letter", `name=K\19x`},
		{"over 255", `name=\256`},
		{"not UTF-8", `name=K\195che`},
		{"lone continuation byte", `name=\128`},
		{"raw byte", "name=K\xc3\xbcche"},
		{"raw control", "name=a\x01b"},
		{"escaped raw control", "name=a\\\x01b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, err := unescapeTXT(c.in); err == nil {
				t.Fatalf("unescapeTXT(%q) = %q, want an error", c.in, got)
			}
		})
	}
}

// TestParseEntryShowsNamesAsTyped: a table and a host named in any
// language are listed as typed after the browser's escaping.
func TestParseEntryShowsNamesAsTyped(t *testing.T) {
	n := newTestNode(t)
	ips := []net.IP{{192, 168, 1, 20}}
	for _, c := range []struct{ name, host string }{
		{"Küche & Co", "Zoë"},
		{`The "best" table \o/`, "Анна"},
		{"李雷的桌子", "李雷"},
		{"plain", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ad := TableAd{ID: LobbyID{4, 2}, Name: c.name, Host: c.host, Variant: "modern", Players: 4, Free: 3, Peer: n.ID()}
			var text []string
			for _, s := range ad.txt() {
				text = append(text, presentTXT(s))
			}
			got, err := parseEntry(text, ips, 4001)
			if err != nil {
				t.Fatalf("parseEntry(%q): %v", text, err)
			}
			if got.Name != c.name || got.Host != c.host {
				t.Fatalf("listed as %q hosted by %q, want %q by %q", got.Name, got.Host, c.name, c.host)
			}
		})
	}
	t.Run("malformed escape refused", func(t *testing.T) {
		ad := TableAd{ID: LobbyID{4, 2}, Name: "x", Variant: "modern", Players: 4, Free: 3, Peer: n.ID()}
		text := ad.txt()
		text[2] = `name=K\19`
		if _, err := parseEntry(text, ips, 4001); err == nil {
			t.Fatal("an advert with a malformed escape was read")
		}
	})
	t.Run("clock", func(t *testing.T) {
		ad := TableAd{ID: LobbyID{4, 2}, Name: "x", Variant: "modern", Players: 4, Free: 3, Clock: 90, Peer: n.ID()}
		got, err := parseEntry(ad.txt(), ips, 4001)
		if err != nil || got.Clock != 90 {
			t.Fatalf("an advert of a table with a 90 s clock reads as %+v, %v", got, err)
		}
		for _, bad := range []string{"clock=0", "clock=-5", "clock=3601", "clock=30s", "clock="} {
			text := append(ad.txt()[:7:7], bad)
			if got, err := parseEntry(text, ips, 4001); err == nil {
				t.Errorf("an advert with %q was read: %+v", bad, got)
			}
		}
	})
	t.Run("old advert without host", func(t *testing.T) {
		ad := TableAd{ID: LobbyID{4, 2}, Name: "x", Variant: "modern", Players: 4, Free: 3, Peer: n.ID()}
		text := ad.txt()
		if len(text) != 7 {
			t.Fatalf("an advert without a host name has %d strings", len(text))
		}
		got, err := parseEntry(text, ips, 4001)
		if err != nil || got.Host != "" {
			t.Fatalf("parseEntry: %+v, %v", got, err)
		}
	})
}
