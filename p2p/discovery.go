package p2p

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/grandcat/zeroconf"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
)

// Discovery constants.
const (
	// ServiceType is the mDNS service tables advertise.
	ServiceType = "_njet._tcp"
	// DiscoveryVersion is the protocol version in the TXT record ("v=").
	DiscoveryVersion = 1
	// AdvertTTL is the TTL of the advertised records, in seconds: a table
	// that vanishes without a goodbye is dropped soon.
	AdvertTTL = 10
)

// TableAd is a table as advertised on the LAN.
type TableAd struct {
	ID   LobbyID
	Name string
	// Game is the game the table plays and Variant its variant
	// (games.Variant.ID: Njet's edition, The Game's base or Extreme). The
	// advert carries the variant's word (games.Variant.Ad, "ed=") alone:
	// Njet's edition as it always did, "thegame" or "thegame-extreme" for
	// The Game, which a browser that knows only Njet refuses.
	Game    table.GameName
	Variant string
	Players int
	Free    int // seats open to joiners when the record was sent
	// Host is the host's player name (table.CheckName), or "" when the
	// host gave none.
	Host string
	// Clock is the table's clock in seconds per move (table.Genesis.Clock),
	// 0 when it has none: a person knows before joining whether they
	// will be timed.
	Clock int
	Peer  peer.ID
	Addrs []ma.Multiaddr // where its host listens, each without /p2p
}

// AddrInfo returns where to dial the table's host.
func (a TableAd) AddrInfo() peer.AddrInfo { return peer.AddrInfo{ID: a.Peer, Addrs: a.Addrs} }

// maxAdName bounds the advertised name, in bytes.
const maxAdName = 63

// adName is the name as advertised and as read from an advert: valid
// UTF-8, control characters replaced (a browser prints it on a terminal),
// cut to maxAdName bytes at a character's end.
func adName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
	for len(s) > maxAdName {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

// txt encodes the TXT strings: v, id, name, ed, players, free, peer,
// host when the host has a player name, and clock when the table has one.
// Each fits one TXT string (255 bytes): the names are cut (adName). A
// browser that does not know host or clock ignores it.
func (a TableAd) txt() []string {
	t := []string{
		"v=" + strconv.Itoa(DiscoveryVersion),
		"id=" + a.ID.String(),
		"name=" + adName(a.Name),
		"ed=" + a.ad(),
		"players=" + strconv.Itoa(a.Players),
		"free=" + strconv.Itoa(a.Free),
		"peer=" + a.Peer.String(),
	}
	if h := adName(a.Host); h != "" {
		t = append(t, "host="+h)
	}
	if a.Clock > 0 {
		t = append(t, "clock="+strconv.Itoa(a.Clock))
	}
	return t
}

// ad is the advertised "ed" field: the word of the table's variant.
func (a TableAd) ad() string {
	g, err := games.ByName(a.Game)
	if err != nil {
		return ""
	}
	v, err := g.Variant(a.Variant)
	if err != nil {
		return ""
	}
	return v.Ad
}

// unescapeTXT turns a TXT string from DNS presentation form, as zeroconf
// hands it over (github.com/miekg/dns writes every byte outside printable
// ASCII as \DDD, and '"' and '\' with a backslash before them), back
// into the bytes the advertiser sent. It is strict: a backslash at the
// end, a \DDD that is not three decimal digits of at most 255, a byte
// outside printable ASCII, or a result that is not UTF-8 is refused.
func unescapeTXT(s string) (string, error) {
	if !strings.Contains(s, "\\") {
		for i := range len(s) {
			if s[i] < ' ' || s[i] > '~' {
				return "", fmt.Errorf("p2p: advert text: raw byte %#02x at %d", s[i], i)
			}
		}
		return s, nil
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < ' ' || c > '~':
			return "", fmt.Errorf("p2p: advert text: raw byte %#02x at %d", c, i)
		case c != '\\':
			b = append(b, c)
			continue
		}
		if i+1 >= len(s) {
			return "", fmt.Errorf("p2p: advert text: a backslash at the end")
		}
		d := s[i+1]
		switch {
		case d < ' ' || d > '~':
			return "", fmt.Errorf("p2p: advert text: raw byte %#02x at %d", d, i+1)
		case d < '0' || d > '9':
			b = append(b, d)
			i++
			continue
		}
		if i+3 >= len(s) || !isDigit(s[i+2]) || !isDigit(s[i+3]) {
			return "", fmt.Errorf("p2p: advert text: escape %q is not \\DDD", s[i:min(i+4, len(s))])
		}
		v := int(d-'0')*100 + int(s[i+2]-'0')*10 + int(s[i+3]-'0')
		if v > 255 {
			return "", fmt.Errorf("p2p: advert text: escape %q is over 255", s[i:i+4])
		}
		b = append(b, byte(v))
		i += 3
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("p2p: advert text is not UTF-8")
	}
	return string(b), nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseEntry reads an advertisement as a browser receives it: each TXT
// string in presentation form (unescapeTXT), then parseAd.
func parseEntry(text []string, ips []net.IP, port int) (TableAd, error) {
	plain := make([]string, len(text))
	for i, t := range text {
		u, err := unescapeTXT(t)
		if err != nil {
			return TableAd{}, err
		}
		plain[i] = u
	}
	return parseAd(plain, ips, port)
}

// parseAd reads an advertisement; entries of another version or with
// missing or bad fields are refused.
func parseAd(text []string, ips []net.IP, port int) (TableAd, error) {
	f := make(map[string]string)
	for _, t := range text {
		k, v, ok := strings.Cut(t, "=")
		if ok {
			f[k] = v
		}
	}
	var a TableAd
	if f["v"] != strconv.Itoa(DiscoveryVersion) {
		return a, fmt.Errorf("p2p: advert version %q", f["v"])
	}
	id, err := hex.DecodeString(f["id"])
	if err != nil || len(id) != len(a.ID) {
		return a, fmt.Errorf("p2p: advert id %q", f["id"])
	}
	copy(a.ID[:], id)
	a.Name = adName(f["name"])
	a.Host = adName(f["host"])
	if a.Players, err = strconv.Atoi(f["players"]); err != nil {
		return a, err
	}
	g, v, err := games.ByAd(f["ed"])
	if err != nil {
		return a, err
	}
	if err := v.CheckPlayers(a.Players); err != nil {
		return a, fmt.Errorf("p2p: advert: %w", err)
	}
	a.Game, a.Variant = g.Name, v.ID
	if a.Free, err = strconv.Atoi(f["free"]); err != nil {
		return a, err
	}
	if a.Free < 0 || a.Free > a.Players {
		return a, fmt.Errorf("p2p: advert with %d of %d seats free", a.Free, a.Players)
	}
	if c, ok := f["clock"]; ok {
		if a.Clock, err = strconv.Atoi(c); err != nil || a.Clock < 1 || a.Clock > table.MaxClock {
			return a, fmt.Errorf("p2p: advert clock %q: want 1 to %d seconds", c, table.MaxClock)
		}
	}
	if a.Peer, err = peer.Decode(f["peer"]); err != nil {
		return a, err
	}
	if port <= 0 || port > 65535 {
		return a, fmt.Errorf("p2p: advert port %d", port)
	}
	for _, ip := range ips {
		m, err := manet.FromNetAddr(&net.TCPAddr{IP: ip, Port: port})
		if err == nil {
			a.Addrs = append(a.Addrs, m)
		}
	}
	return a, nil
}

// Advert is a table advertised over mDNS.
type Advert struct {
	mu     sync.Mutex
	server *zeroconf.Server
	ad     TableAd
}

// Advertise announces the table on every multicast interface. The
// addresses are the node's own, read through anet, so that Android, where
// the standard library cannot list them, advertises them too.
func (n *Node) Advertise(ad TableAd) (*Advert, error) {
	port := n.TCPPort()
	if port == 0 {
		return nil, fmt.Errorf("p2p: no TCP listener to advertise")
	}
	ad.Peer = n.host.ID()
	ifaces, err := multicastInterfaces()
	if err != nil {
		return nil, err
	}
	var ips []string
	for _, a := range n.host.Addrs() {
		ip, err := manet.ToIP(a)
		if err != nil || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.To4() == nil {
			continue
		}
		if s := ip.String(); !slices.Contains(ips, s) {
			ips = append(ips, s)
		}
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("%w: no LAN address to advertise", ErrNoNetwork)
	}
	instance := "njet-" + ad.ID.String()[:12]
	host := "njet-" + ad.Peer.String()[len(ad.Peer.String())-12:]
	server, err := zeroconf.RegisterProxy(instance, ServiceType, "local.", port, host, ips, ad.txt(), ifaces)
	if err != nil {
		return nil, fmt.Errorf("p2p: mDNS: %w", err)
	}
	server.TTL(AdvertTTL)
	return &Advert{server: server, ad: ad}, nil
}

// SetFree changes the free seat count in the TXT record. Browsers that
// already saw the entry do not hear of it (zeroconf sends no updates);
// Browse re-queries, so they learn it on their next round.
func (a *Advert) SetFree(free int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.server == nil || a.ad.Free == free {
		return
	}
	a.ad.Free = free
	a.server.SetText(a.ad.txt())
}

// Close withdraws the advertisement (a goodbye with TTL 0).
func (a *Advert) Close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.server != nil {
		a.server.Shutdown()
		a.server = nil
	}
}

// ErrNoNetwork: the device has no network interface up that carries
// multicast (Wi-Fi off, or none joined), so no table can be seen on it.
var ErrNoNetwork = errors.New("p2p: this device is on no network")

// BrowseRound is the length of one mDNS browsing round: zeroconf reports
// an entry once per browse, so Browse starts a new one every round, and a
// table missing from two rounds (and older than its TTL) is dropped.
const BrowseRound = 3 * time.Second

// Browse lists the tables advertised on the LAN until ctx ends: found is
// called, from Browse's goroutine, with the whole list, sorted by name,
// whenever a table appears, changes or vanishes.
func Browse(ctx context.Context, found func([]TableAd)) error {
	ifaces, err := multicastInterfaces()
	if err != nil {
		return err
	}
	if len(ifaces) == 0 {
		return ErrNoNetwork
	}
	type seen struct {
		ad    TableAd
		round int
		at    time.Time
	}
	tables := make(map[LobbyID]*seen)
	report := func() {
		list := make([]TableAd, 0, len(tables))
		for _, s := range tables {
			list = append(list, s.ad)
		}
		slices.SortFunc(list, func(a, b TableAd) int {
			return strings.Compare(a.Name+a.ID.String(), b.Name+b.ID.String())
		})
		found(list)
	}
	report()
	for round := 0; ctx.Err() == nil; round++ {
		resolver, err := zeroconf.NewResolver(zeroconf.SelectIfaces(ifaces), zeroconf.SelectIPTraffic(zeroconf.IPv4))
		if err != nil {
			return fmt.Errorf("p2p: mDNS: %w", err)
		}
		rctx, cancel := context.WithTimeout(ctx, BrowseRound)
		entries := make(chan *zeroconf.ServiceEntry, 16)
		if err := resolver.Browse(rctx, ServiceType, "local.", entries); err != nil {
			cancel()
			return fmt.Errorf("p2p: mDNS browse: %w", err)
		}
		// zeroconf closes entries when rctx ends.
		for e := range entries {
			ad, err := parseEntry(e.Text, e.AddrIPv4, e.Port)
			if err != nil {
				continue
			}
			old := tables[ad.ID]
			tables[ad.ID] = &seen{ad: ad, round: round, at: time.Now()}
			if old == nil || old.ad.Free != ad.Free || old.ad.Name != ad.Name || old.ad.Host != ad.Host {
				report()
			}
		}
		cancel()
		changed := false
		for id, s := range tables {
			if s.round < round-1 && time.Since(s.at) > AdvertTTL*time.Second {
				delete(tables, id)
				changed = true
			}
		}
		if changed {
			report()
		}
	}
	return ctx.Err()
}
