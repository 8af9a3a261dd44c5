package p2p

import (
	"context"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	lcrypto "github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/sec"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
	"github.com/njetlan/njet/tablelog"
)

// A join code is what a host reads out to players on a LAN without
// multicast: the host's IPv4 address and TCP port and the first five bytes
// of its identity key, in 11 bytes of base32 (18 letters, shown in groups
// of six). The joiner dials the address, learns the host's peer id from
// the secure handshake and accepts it only if its key starts with those
// bytes; a host runs one lobby, so the code needs no table id.
const joinCodeLen = 4 + 2 + 5

var joinCodeEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// JoinCode returns the code of the host pid reachable at ip:port.
func JoinCode(ip net.IP, port int, pid peer.ID) (string, error) {
	id, err := IdentityOfPeer(pid)
	if err != nil {
		return "", err
	}
	ip4 := ip.To4()
	if ip4 == nil || port <= 0 || port > 65535 {
		return "", fmt.Errorf("p2p: a join code needs an IPv4 address and a port")
	}
	b := append([]byte(nil), ip4...)
	b = binary.BigEndian.AppendUint16(b, uint16(port))
	b = append(b, id[:5]...)
	s := joinCodeEncoding.EncodeToString(b)
	return s[:6] + "-" + s[6:12] + "-" + s[12:], nil
}

// ParseJoinCode decodes a join code (case and dashes do not matter) into
// the host's TCP address and the prefix of its identity key.
func ParseJoinCode(code string) (ma.Multiaddr, [5]byte, error) {
	var prefix [5]byte
	s := strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(code))
	b, err := joinCodeEncoding.DecodeString(s)
	// The last letter carries two bits beyond the 11 bytes: a code whose
	// bits there are not zero is not one JoinCode writes, nor is port 0.
	if err != nil || len(b) != joinCodeLen || joinCodeEncoding.EncodeToString(b) != s {
		return nil, prefix, fmt.Errorf("p2p: bad join code %q", code)
	}
	port := int(binary.BigEndian.Uint16(b[4:6]))
	if port == 0 {
		return nil, prefix, fmt.Errorf("p2p: bad join code %q: port 0", code)
	}
	addr, err := manet.FromNetAddr(&net.TCPAddr{IP: net.IP(b[:4]), Port: port})
	if err != nil {
		return nil, prefix, err
	}
	copy(prefix[:], b[6:])
	return addr, prefix, nil
}

// ParseAddr reads where to join: a multiaddr (with or without /p2p/<id>)
// or host:port. Without a peer id the host's is learnt from the handshake
// (see DialUnknown).
func ParseAddr(s string) (ma.Multiaddr, peer.ID, error) {
	if strings.HasPrefix(s, "/") {
		m, err := ma.NewMultiaddr(s)
		if err != nil {
			return nil, "", fmt.Errorf("p2p: bad address %q: %w", s, err)
		}
		if info, err := peer.AddrInfoFromP2pAddr(m); err == nil {
			if len(info.Addrs) == 0 {
				return nil, "", fmt.Errorf("p2p: address %q has no transport part", s)
			}
			return info.Addrs[0], info.ID, nil
		}
		return m, "", nil
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return nil, "", fmt.Errorf("p2p: bad address %q: want host:port or a multiaddr", s)
	}
	ip := net.ParseIP(host)
	if ip == nil {
		ips, err := net.LookupIP(host)
		if err != nil || len(ips) == 0 {
			return nil, "", fmt.Errorf("p2p: cannot resolve %q", host)
		}
		ip = ips[0]
	}
	// Decimal digits only: "4001x" or "0x0fa1" is no port.
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil || p == 0 {
		return nil, "", fmt.Errorf("p2p: bad port in %q", s)
	}
	m, err := manet.FromNetAddr(&net.TCPAddr{IP: ip, Port: int(p)})
	return m, "", err
}

// DialUnknown connects to the host at addr whose peer id is unknown: a
// first handshake, made in the name of a throwaway id, fails and reports
// the key the host proved; accept, when not nil, vets it; then the node
// connects to it properly. ctx bounds both dials.
func (n *Node) DialUnknown(ctx context.Context, addr ma.Multiaddr, accept func(peer.ID) bool) (peer.ID, error) {
	_, pub, err := lcrypto.GenerateEd25519Key(cryptoReader{})
	if err != nil {
		return "", err
	}
	probe, err := peer.IDFromPublicKey(pub)
	if err != nil {
		return "", err
	}
	err = n.host.Connect(ctx, peer.AddrInfo{ID: probe, Addrs: []ma.Multiaddr{addr}})
	n.host.Peerstore().ClearAddrs(probe)
	n.host.Peerstore().RemovePeer(probe)
	var mismatch sec.ErrPeerIDMismatch
	if !errors.As(err, &mismatch) {
		if err == nil {
			return "", fmt.Errorf("%w: %v answered for a throwaway id", tablelog.ErrUnreachable, addr)
		}
		return "", fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, addr, err)
	}
	pid := mismatch.Actual
	if accept != nil && !accept(pid) {
		return "", fmt.Errorf("%w: the host at %v is not the one the join code names", ErrRefused, addr)
	}
	return pid, n.Connect(ctx, peer.AddrInfo{ID: pid, Addrs: []ma.Multiaddr{addr}})
}

// MatchesPrefix reports whether pid's key starts with prefix (a join
// code's fingerprint).
func MatchesPrefix(pid peer.ID, prefix [5]byte) bool {
	id, err := IdentityOfPeer(pid)
	return err == nil && [5]byte(id[:5]) == prefix
}
