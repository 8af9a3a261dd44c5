package p2p

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/njetlan/njet/engine"
	"github.com/njetlan/njet/games"
	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// Fuzz targets for every decoder of what another device sends: the setup,
// the lobby's frames and messages, join codes, typed addresses and mDNS
// adverts. Each has a seed corpus of valid values, so plain go test runs
// them; decode → encode must reproduce what was accepted.

// fuzzSetup builds a valid setup: the genesis signed by host (seat 0),
// the devices host and each of others (with addresses), and a bot.
func fuzzSetup(tb testing.TB, host ed25519.PrivateKey, others ...ed25519.PrivateKey) *Setup {
	tb.Helper()
	idOf := func(k ed25519.PrivateKey) tablelog.Identity {
		id, err := tablelog.IdentityOf(k.Public().(ed25519.PublicKey))
		if err != nil {
			tb.Fatal(err)
		}
		return id
	}
	_, bot, err := ed25519.GenerateKey(nil)
	if err != nil {
		tb.Fatal(err)
	}
	ids := []tablelog.Identity{idOf(host)}
	for _, k := range others {
		ids = append(ids, idOf(k))
	}
	ids = append(ids, idOf(bot))
	for len(ids) < engine.Classic.MinPlayers() {
		ids = append(ids, idOf(newKey(tb)))
	}
	gen := &table.Genesis{Edition: engine.Classic, Characters: engine.Classic.Characters()[:len(ids)], Keys: ids, Rounds: 1}
	body, err := gen.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	env := &tablelog.Envelope{Version: tablelog.EnvelopeVersion, Table: table.TableIDOf(body), Kind: tablelog.KindGenesis, Body: body}
	if err := env.Sign(host); err != nil {
		tb.Fatal(err)
	}
	s := &Setup{Genesis: env}
	for i, id := range ids[:1+len(others)] {
		s.Devices = append(s.Devices, Device{ID: id, Addrs: []ma.Multiaddr{
			ma.StringCast("/ip4/192.168.1." + strconv.Itoa(10+i) + "/tcp/4001"),
			ma.StringCast("/ip6/fe80::1/udp/4001/quic-v1"),
		}})
	}
	return s
}

func newKey(tb testing.TB) ed25519.PrivateKey {
	tb.Helper()
	_, k, err := ed25519.GenerateKey(nil)
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

func mustMarshal(tb testing.TB, s *Setup) []byte {
	tb.Helper()
	b, err := s.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func FuzzParseSetup(f *testing.F) {
	valid := mustMarshal(f, fuzzSetup(f, newKey(f), newKey(f)))
	f.Add(valid)
	f.Add(mustMarshal(f, fuzzSetup(f, newKey(f))))
	f.Add(valid[:len(valid)-1])
	f.Add(append(bytes.Clone(valid), 0))
	f.Add([]byte{setupVersion, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSetup(data)
		if err != nil {
			if s != nil {
				t.Fatal("a setup returned with an error")
			}
			return
		}
		enc, err := s.MarshalBinary()
		if err != nil {
			t.Fatalf("a parsed setup does not encode: %v", err)
		}
		if !bytes.Equal(enc, data) {
			t.Fatalf("decode → encode changed the setup:\n in %x\nout %x", data, enc)
		}
	})
}

func frame(msg ...byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(msg))), msg...)
}

// FuzzLobbyFrame: a frame that reads is written back the same.
func FuzzLobbyFrame(f *testing.F) {
	f.Add(frame(lobbyVersion, msgWait, 1, 2))
	f.Add(frame())
	f.Add([]byte{0, 0, 0, 9, 1})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		msg, err := readFrame(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := writeFrame(&out, msg); err != nil {
			t.Fatalf("a frame that reads does not write: %v", err)
		}
		if !bytes.Equal(out.Bytes(), data[:4+len(msg)]) {
			t.Fatalf("read → write changed the frame:\n in %x\nout %x", data[:4+len(msg)], out.Bytes())
		}
	})
}

// claimStream is a joiner's lobby stream as the host's Lobby.serve sees
// it: it reads what the joiner sent, then the end of the stream (the
// joiner leaves), and records what the host writes.
type claimStream struct {
	network.Stream
	conn claimConn

	mu  sync.Mutex
	in  io.Reader
	out bytes.Buffer
}

type claimConn struct {
	network.Conn
	remote peer.ID
}

func (c claimConn) RemotePeer() peer.ID { return c.remote }

func (s *claimStream) Read(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.in.Read(b)
}

func (s *claimStream) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Write(b)
}

func (s *claimStream) Conn() network.Conn               { return s.conn }
func (s *claimStream) SetReadDeadline(time.Time) error  { return nil }
func (s *claimStream) SetWriteDeadline(time.Time) error { return nil }

// FuzzLobbyClaim feeds a host's lobby a joiner's stream: a claim for the
// lobby (or any lobby) is answered with the seat count and the seat is
// freed when the joiner leaves; anything else is refused or dropped.
func FuzzLobbyClaim(f *testing.F) {
	hostKey, joinerKey := newKey(f), newKey(f)
	hostID, err := tablelog.IdentityOf(hostKey.Public().(ed25519.PublicKey))
	if err != nil {
		f.Fatal(err)
	}
	joinerID, err := tablelog.IdentityOf(joinerKey.Public().(ed25519.PublicKey))
	if err != nil {
		f.Fatal(err)
	}
	joiner, err := PeerIDOf(joinerID)
	if err != nil {
		f.Fatal(err)
	}
	lobbyID := LobbyID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	f.Add(frame(append([]byte{lobbyVersion, msgClaim}, lobbyID[:]...)...))
	f.Add(frame(append([]byte{lobbyVersion, msgClaim}, make([]byte, len(LobbyID{}))...)...))
	f.Add(frame(append([]byte{lobbyVersion, msgClaim}, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9)...))
	f.Add(frame(lobbyVersion, msgWait, 1, 2))
	f.Add(frame(append(append([]byte{lobbyVersion, msgClaim}, lobbyID[:]...), "Анна"...)...))
	f.Add(frame(append(append([]byte{lobbyVersion, msgClaim}, lobbyID[:]...), "An\x1bna"...)...))
	f.Add([]byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		l := &Lobby{n: &Node{id: hostID}, changed: make(chan struct{}), bots: []string{"random"},
			cfg: LobbyConfig{ID: lobbyID, Variant: "classic", Players: 3, Bots: 1}}
		s := &claimStream{conn: claimConn{remote: joiner}, in: bytes.NewReader(data)}
		serr := l.serve(s)
		if serr == nil {
			t.Fatal("the lobby served a joiner that left")
		}
		if seated, _ := l.Seated(); seated != 1 {
			t.Fatalf("%d seats taken after the joiner left", seated)
		}
		claim, err := readFrame(bytes.NewReader(data))
		valid := err == nil && len(claim) >= 2+len(LobbyID{}) && len(claim) <= 2+len(LobbyID{})+maxClaimName &&
			claim[0] == lobbyVersion && claim[1] == msgClaim
		var want LobbyID
		var name string
		var nameErr error
		if valid {
			copy(want[:], claim[2:])
			name, nameErr = table.CheckName(string(claim[2+len(want):]))
		}
		reply, err := readFrame(&s.out)
		switch {
		case !valid:
			if s.out.Len() != 0 || !errors.Is(serr, tablelog.ErrMalformed) && !errors.Is(serr, io.ErrUnexpectedEOF) &&
				!errors.Is(serr, io.EOF) && !errors.Is(serr, tablelog.ErrTooLarge) {
				t.Fatalf("a bad claim: %v, answered %x", serr, s.out.Bytes())
			}
		case want != LobbyID{} && want != lobbyID:
			if err != nil || len(reply) < 2 || reply[1] != msgRefuse || !errors.Is(serr, ErrRefused) {
				t.Fatalf("a claim for another lobby: %v, answered %x", serr, reply)
			}
		case nameErr != nil:
			if err != nil || len(reply) < 2 || reply[1] != msgRefuse || !errors.Is(serr, table.ErrBadName) {
				t.Fatalf("a claim with a bad name: %v, answered %x", serr, reply)
			}
		default:
			seats := encodeSeats(LobbySeats{Players: []string{"", name}, Wanted: 2, Bots: []string{"random"}})
			if err != nil || !bytes.Equal(reply, seats) {
				t.Fatalf("a claim: %v, answered %x", serr, reply)
			}
		}
	})
}

// FuzzJoinLobbyReply lets a host answer JoinLobby's claim with any bytes:
// JoinLobby either fails or returns a setup that seats the joiner, whose
// encoding is what the host sent.
func FuzzJoinLobbyReply(f *testing.F) {
	host, joiner := newTestNode(f), newTestNode(f)
	setup := fuzzSetup(f, host.Key(), joiner.Key())
	start := func(seat byte) []byte {
		return frame(append([]byte{lobbyVersion, msgStart, seat}, mustMarshal(f, setup)...)...)
	}
	f.Add(append(frame(lobbyVersion, msgWait, 1, 2), start(1)...))
	f.Add(append(frame(encodeSeats(LobbySeats{Players: []string{"Anna", ""}, Wanted: 2, Bots: []string{"random"}})...), start(1)...))
	f.Add(start(1))
	f.Add(start(0))
	f.Add(frame(append([]byte{lobbyVersion, msgRefuse}, "the table is full\x1b[2J"...)...))
	f.Add(frame(lobbyVersion, 9))
	f.Add(frame(lobbyVersion, msgWait, 1))
	var (
		mu    sync.Mutex
		reply []byte
	)
	served := make(chan struct{}, 1)
	host.Host().SetStreamHandler(LobbyProtocol, func(s network.Stream) {
		defer func() { served <- struct{}{} }()
		defer s.Close()
		mu.Lock()
		b := reply
		mu.Unlock()
		s.SetDeadline(time.Now().Add(testTimeout))
		if _, err := readFrame(s); err != nil {
			s.Reset()
			return
		}
		if _, err := s.Write(b); err != nil {
			s.Reset()
		}
	})
	info := peer.AddrInfo{ID: host.ID(), Addrs: host.Host().Addrs()}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxLobbyMessage+64 {
			t.Skip("more than a host sends")
		}
		// A reply that only says "wait" keeps the joiner waiting, as it
		// should, until the deadline: keep it short.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		mu.Lock()
		reply = data
		mu.Unlock()
		s, seat, err := joiner.JoinLobby(ctx, info, LobbyID{}, "", nil)
		if err != nil && errors.Is(err, tablelog.ErrUnreachable) && !strings.Contains(err.Error(), "lobby of") {
			t.Fatalf("no stream: %v", err)
		}
		// JoinLobby returned on the handler's answer: wait for its end.
		select {
		case <-served:
		case <-ctx.Done():
			t.Fatal("the host's handler did not end")
		}
		if err != nil {
			if s != nil {
				t.Fatal("a setup returned with an error")
			}
			return
		}
		gen, err := s.Check()
		if err != nil {
			t.Fatalf("an unchecked setup: %v", err)
		}
		if gen.Keys[seat] != joiner.Identity() || s.Devices[0].ID != host.Identity() {
			t.Fatalf("seat %d of %v", seat, gen.Keys)
		}
		if enc := mustMarshal(t, s); !bytes.Contains(data, enc) {
			t.Fatalf("decode → encode changed the setup: %x", enc)
		}
	})
}

// joinCodeOfParsed re-encodes what ParseJoinCode read, in the code's own
// shape.
func joinCodeOfParsed(t *testing.T, addr ma.Multiaddr, prefix [5]byte) string {
	t.Helper()
	na, err := manet.ToNetAddr(addr)
	if err != nil {
		t.Fatalf("%v: %v", addr, err)
	}
	tcp, ok := na.(*net.TCPAddr)
	if !ok || tcp.IP.To4() == nil {
		t.Fatalf("a join code's address %v is not TCP over IPv4", addr)
	}
	b := append([]byte(nil), tcp.IP.To4()...)
	b = binary.BigEndian.AppendUint16(b, uint16(tcp.Port))
	s := joinCodeEncoding.EncodeToString(append(b, prefix[:]...))
	return s[:6] + "-" + s[6:12] + "-" + s[12:]
}

func FuzzParseJoinCode(f *testing.F) {
	n := newTestNode(f)
	for _, c := range []struct {
		ip   string
		port int
	}{{"192.168.1.20", 4001}, {"10.0.0.1", 1}, {"255.255.255.255", 65535}} {
		code, err := JoinCode(net.ParseIP(c.ip), c.port, n.ID())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(code)
		f.Add(strings.ToLower(strings.ReplaceAll(code, "-", " ")))
	}
	f.Add("")
	f.Add("AAAAAA-AAAAAA-AAAAAA")
	f.Add("AAAAAA-AAAAAA-AAAAAB")
	f.Fuzz(func(t *testing.T, code string) {
		addr, prefix, err := ParseJoinCode(code)
		if err != nil {
			return
		}
		if na, err := manet.ToNetAddr(addr); err != nil || na.(*net.TCPAddr).Port == 0 {
			t.Fatalf("%q: address %v", code, addr)
		}
		// Case, dashes and spaces do not matter; nothing else may differ.
		got := joinCodeOfParsed(t, addr, prefix)
		norm := strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(code))
		if strings.ReplaceAll(got, "-", "") != norm {
			t.Fatalf("decode → encode changed the join code: %q → %q", code, got)
		}
		if MatchesPrefix(n.ID(), prefix) {
			na, _ := manet.ToNetAddr(addr)
			tcp := na.(*net.TCPAddr)
			again, err := JoinCode(tcp.IP, tcp.Port, n.ID())
			if err != nil || again != got {
				t.Fatalf("JoinCode(%v) = %q, %v; want %q", tcp, again, err, got)
			}
		}
	})
}

func FuzzParseAddr(f *testing.F) {
	n := newTestNode(f)
	for _, a := range n.Host().Addrs() {
		f.Add(a.String())
		f.Add(a.Encapsulate(ma.StringCast("/p2p/" + n.ID().String())).String())
	}
	f.Add("192.168.1.20:4001")
	f.Add("[fe80::1]:4001")
	f.Add("[::1]:65535")
	f.Add("10.0.0.1:0")
	f.Add("10.0.0.1:4001x")
	f.Add("/p2p/" + n.ID().String())
	f.Add("/ip4/1.2.3.4")
	f.Fuzz(func(t *testing.T, s string) {
		if !strings.HasPrefix(s, "/") {
			// Host names are resolved, which a fuzz target must not do.
			if host, _, err := net.SplitHostPort(s); err == nil && net.ParseIP(host) == nil {
				t.Skip("a host name")
			}
		}
		addr, pid, err := ParseAddr(s)
		if err != nil {
			return
		}
		if addr == nil {
			t.Fatalf("%q: no address", s)
		}
		if strings.HasPrefix(s, "/") {
			// The multiaddr, written out again, reads the same.
			again := addr.String()
			if pid != "" {
				again += "/p2p/" + pid.String()
			}
			a2, p2, err := ParseAddr(again)
			if err != nil || !a2.Equal(addr) || p2 != pid {
				t.Fatalf("%q → %q → %v %v %v", s, again, a2, p2, err)
			}
			return
		}
		// host:port reads as exactly that IP and port.
		host, port, _ := net.SplitHostPort(s)
		na, err := manet.ToNetAddr(addr)
		if err != nil {
			t.Fatalf("%q → %v: %v", s, addr, err)
		}
		tcp, ok := na.(*net.TCPAddr)
		want, perr := strconv.ParseUint(port, 10, 16)
		if !ok || pid != "" || !tcp.IP.Equal(net.ParseIP(host)) || perr != nil || uint64(tcp.Port) != want {
			t.Fatalf("%q → %v (%q)", s, addr, pid)
		}
	})
}

func FuzzParseAd(f *testing.F) {
	n := newTestNode(f)
	for _, ad := range []TableAd{
		{ID: LobbyID{1, 2, 3}, Name: "Kitchen table", Variant: "classic", Players: 4, Free: 2},
		{ID: LobbyID{0xff}, Name: "", Variant: "modern", Players: 5, Free: 0},
		{ID: LobbyID{7}, Name: strings.Repeat("ß", 40), Variant: "modern", Players: 2, Free: 1},
		{ID: LobbyID{8}, Name: `Küche & "Co" \o/`, Host: "Zoë", Variant: "classic", Players: 3, Free: 1},
		{ID: LobbyID{9}, Name: "Timed", Variant: "modern", Players: 4, Free: 3, Clock: 30},
	} {
		ad.Peer = n.ID()
		f.Add(strings.Join(ad.txt(), "\n"), []byte{192, 168, 1, 20}, 4001)
		var present []string
		for _, s := range ad.txt() {
			present = append(present, presentTXT(s))
		}
		f.Add(strings.Join(present, "\n"), []byte{192, 168, 1, 20}, 4001)
	}
	f.Add("v=1\nname=K\\19\nname=\\256\nname=\\", []byte{10, 0, 0, 1}, 4001)
	f.Add("v=1\nid=00\nname=x", []byte{}, 0)
	f.Add("v=1\nid=01000000000000000000000000000000\nname=\x1b[2Jhi\xff\ned=classic\nplayers=4\nfree=9\npeer="+n.ID().String(),
		[]byte{10, 0, 0, 1}, 4001)
	f.Add("v=1\nid=01000000000000000000000000000000\nname=\x1b[2Jhi\xff\ned=classic\nplayers=4\nfree=1\npeer="+n.ID().String(),
		[]byte{10, 0, 0, 1}, 4001)
	f.Fuzz(func(t *testing.T, text string, ip []byte, port int) {
		var ips []net.IP
		for len(ip) >= 4 {
			ips = append(ips, net.IP(ip[:4]))
			ip = ip[4:]
		}
		lines := strings.Split(text, "\n")
		// The unescaper refuses or returns UTF-8 that a browser's escaping
		// gives back unchanged.
		for _, l := range lines {
			u, err := unescapeTXT(l)
			if err != nil {
				continue
			}
			if !utf8.ValidString(u) {
				t.Fatalf("unescapeTXT(%q) = %q, not UTF-8", l, u)
			}
			if again, err := unescapeTXT(presentTXT(u)); err != nil || again != u {
				t.Fatalf("unescapeTXT(presentTXT(%q)) = %q, %v", u, again, err)
			}
		}
		if e, err := parseEntry(lines, ips, port); err == nil {
			if plain, err := parseAd(lines, ips, port); err == nil && !strings.Contains(text, "\\") && !sameAd(e, plain) {
				t.Fatalf("%q: escaping-free text reads differently: %+v, %+v", lines, e, plain)
			}
		}
		a, err := parseAd(lines, ips, port)
		if err != nil {
			return
		}
		var present []string
		for _, s := range a.txt() {
			present = append(present, presentTXT(s))
		}
		if e, err := parseEntry(present, ips, port); err != nil || !sameAd(e, a) {
			t.Fatalf("%q as a browser hands it over: %+v, %v; want %+v", present, e, err, a)
		}
		// The record our own encoder would send for it reads the same.
		again, err := parseAd(a.txt(), ips, port)
		if err != nil {
			t.Fatalf("%q: the advert's own record does not read: %v", lines, err)
		}
		if len(a.Name) <= 63 && !sameAd(a, again) {
			t.Fatalf("decode → encode changed the advert:\n%+v\n%+v", a, again)
		}
		g, err := games.ByName(a.Game)
		if err != nil {
			t.Fatalf("an advert of game %v: %v", a.Game, err)
		}
		v, err := g.Variant(a.Variant)
		if err != nil || v.CheckPlayers(a.Players) != nil || a.Free < 0 || a.Free > a.Players {
			t.Fatalf("an advert of %d players, %d free", a.Players, a.Free)
		}
		for _, r := range a.Name + a.Host {
			if r < 0x20 || r == 0x7f || r == '\uFFFD' {
				t.Fatalf("the name %q holds what a terminal must not print", a.Name)
			}
		}
	})
}

func sameAd(a, b TableAd) bool {
	if a.ID != b.ID || a.Name != b.Name || a.Host != b.Host || a.Game != b.Game || a.Variant != b.Variant || a.Players != b.Players || a.Free != b.Free ||
		a.Clock != b.Clock || a.Peer != b.Peer || len(a.Addrs) != len(b.Addrs) {
		return false
	}
	for i := range a.Addrs {
		if !a.Addrs[i].Equal(b.Addrs[i]) {
			return false
		}
	}
	return true
}
