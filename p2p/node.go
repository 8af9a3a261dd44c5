package p2p

import (
	"bytes"
	"context"
	"crypto/ed25519"
	crand "crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	pubsub "github.com/libp2p/go-libp2p-pubsub"
	pb "github.com/libp2p/go-libp2p-pubsub/pb"
	lconnmgr "github.com/libp2p/go-libp2p/core/connmgr"
	lcrypto "github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/connmgr"
	quic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/njetlan/njet/table"
	"github.com/njetlan/njet/tablelog"
)

// Logf receives a node's reports; nil discards them.
type Logf func(format string, args ...any)

// NodeConfig sets up a Node.
type NodeConfig struct {
	// Key is the device's identity (LoadIdentity); it signs pubsub
	// messages and is the key of the seat the device takes.
	Key ed25519.PrivateKey
	// Listen are the multiaddrs to listen on; nil listens on every
	// interface, TCP and QUIC, on ports the system picks.
	Listen []string
	// Logf, when not nil, receives reports about rejected input.
	Logf Logf

	// gater, in tests, decides which connections the host makes and
	// takes (a network split between devices).
	gater lconnmgr.ConnectionGater
}

// DefaultListen listens on every interface, IPv4 and IPv6, TCP and QUIC.
var DefaultListen = []string{
	"/ip4/0.0.0.0/tcp/0",
	"/ip4/0.0.0.0/udp/0/quic-v1",
	"/ip6/::/tcp/0",
	"/ip6/::/udp/0/quic-v1",
}

// LoopbackListen listens on 127.0.0.1 only (tests and benchmarks).
var LoopbackListen = []string{"/ip4/127.0.0.1/tcp/0", "/ip4/127.0.0.1/udp/0/quic-v1"}

// Node is one device on the network: a libp2p host with TCP and QUIC, no
// relay, no DHT and no port mapping, and a gossipsub router. It serves the
// sync and lobby protocols for the tables it joins.
type Node struct {
	host host.Host
	ps   *pubsub.PubSub
	key  ed25519.PrivateKey
	id   tablelog.Identity
	logf Logf

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	syncs  chan struct{} // bounds concurrent sync streams served

	mu     sync.Mutex
	tables map[tablelog.TableID]*Table
	lobby  *Lobby
}

// maxSyncServed bounds the sync streams a node answers at once; more are
// reset, and the asker tries again later.
const maxSyncServed = 8

// NewNode starts a node. It ends with Close.
func NewNode(cfg NodeConfig) (*Node, error) {
	if len(cfg.Key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("p2p: NewNode: no identity key")
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.Listen == nil {
		cfg.Listen = DefaultListen
	}
	sk, err := lcrypto.UnmarshalEd25519PrivateKey(cfg.Key)
	if err != nil {
		return nil, fmt.Errorf("p2p: identity key: %w", err)
	}
	id, err := tablelog.IdentityOf(cfg.Key.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, err
	}
	cm, err := connmgr.NewConnManager(32, 64, connmgr.WithGracePeriod(time.Minute))
	if err != nil {
		return nil, err
	}
	opts := []libp2p.Option{
		libp2p.Identity(sk),
		libp2p.ListenAddrStrings(cfg.Listen...),
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Transport(quic.NewTransport),
		libp2p.DisableRelay(),
		libp2p.ConnectionManager(cm),
		libp2p.AddrsFactory(lanAddrs),
	}
	if cfg.gater != nil {
		opts = append(opts, libp2p.ConnectionGater(cfg.gater))
	}
	h, err := libp2p.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("p2p: libp2p host: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := &Node{host: h, key: cfg.Key, id: id, logf: cfg.Logf, ctx: ctx, cancel: cancel,
		syncs: make(chan struct{}, maxSyncServed), tables: make(map[tablelog.TableID]*Table)}
	n.ps, err = pubsub.NewGossipSub(ctx, h,
		pubsub.WithMessageSignaturePolicy(pubsub.StrictSign),
		pubsub.WithMessageIdFn(messageID),
		pubsub.WithPeerFilter(n.peerFilter),
		pubsub.WithMaxMessageSize(tablelog.MaxEnvelopeSize+4096),
		pubsub.WithValidateQueueSize(256),
	)
	if err != nil {
		cancel()
		return nil, errors.Join(fmt.Errorf("p2p: gossipsub: %w", err), h.Close())
	}
	h.SetStreamHandler(SyncProtocol, n.serveSync)
	h.SetStreamHandler(LobbyProtocol, n.serveLobby)
	h.SetStreamHandler(WatchProtocol, n.serveWatch)
	h.SetStreamHandler(ClaimProtocol, n.serveClaim)
	return n, nil
}

// messageID is the message's content hash: the same envelope published
// twice (a restarted peer re-publishing) is one message. The id of a
// message outside the log (a SilenceVote, a seat claim or an approval)
// adds its sender and sequence number: a voter publishes its standing vote
// again on every poll because gossip loses messages, and with the content
// hash alone every repetition would be dropped as already seen.
func messageID(m *pb.Message) string {
	if !table.IsSideMessage(m.Data) {
		h := sha256.Sum256(m.Data)
		return string(h[:])
	}
	h := sha256.New()
	h.Write(m.Data)
	h.Write(m.From)
	h.Write(m.Seqno)
	return string(h.Sum(nil))
}

// peerFilter admits to a table's topic only the devices that host its
// seats; other topics (none are used) admit nobody.
func (n *Node) peerFilter(pid peer.ID, topic string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, t := range n.tables {
		if t.topicName == topic {
			return t.roster.isMember(pid)
		}
	}
	return false
}

// ID returns the device's peer id.
func (n *Node) ID() peer.ID { return n.host.ID() }

// Identity returns the device's key as a seat identity.
func (n *Node) Identity() tablelog.Identity { return n.id }

// Key returns the device's signing key.
func (n *Node) Key() ed25519.PrivateKey { return n.key }

// Host returns the libp2p host (tests use it to connect nodes).
func (n *Node) Host() host.Host { return n.host }

// Addrs returns the node's dialable addresses, each ending in /p2p/<id>.
func (n *Node) Addrs() []ma.Multiaddr {
	info := peer.AddrInfo{ID: n.host.ID(), Addrs: n.host.Addrs()}
	out, err := peer.AddrInfoToP2pAddrs(&info)
	if err != nil {
		return nil
	}
	return out
}

// TCPPort returns the port of the node's first IPv4 TCP listener, or 0.
func (n *Node) TCPPort() int {
	for _, a := range n.host.Network().ListenAddresses() {
		if p, err := a.ValueForProtocol(ma.P_TCP); err == nil {
			if _, err := a.ValueForProtocol(ma.P_IP4); err == nil {
				var port int
				if _, err := fmt.Sscan(p, &port); err == nil {
					return port
				}
			}
		}
	}
	return 0
}

// Connect dials the peer at info, bounded by ctx.
func (n *Node) Connect(ctx context.Context, info peer.AddrInfo) error {
	if err := n.host.Connect(ctx, info); err != nil {
		return fmt.Errorf("%w: %v: %w", tablelog.ErrUnreachable, info.ID, err)
	}
	return nil
}

// Close leaves every table and stops the host.
func (n *Node) Close() error {
	n.mu.Lock()
	var tables []*Table
	for _, t := range n.tables {
		tables = append(tables, t)
	}
	n.mu.Unlock()
	var errs []error
	for _, t := range tables {
		errs = append(errs, t.Close())
	}
	n.cancel()
	errs = append(errs, n.host.Close())
	n.wg.Wait()
	return errors.Join(errs...)
}

// lanAddrs replaces unspecified listen addresses (0.0.0.0, ::) by one per
// interface address, read through interfaceAddrs (anet on Android, where
// the standard library cannot list interfaces), and drops link-local IPv6.
func lanAddrs(addrs []ma.Multiaddr) []ma.Multiaddr {
	ifaddrs, err := interfaceAddrs()
	if err != nil {
		return addrs
	}
	var out []ma.Multiaddr
	for _, a := range addrs {
		ip, err := manet.ToIP(a)
		if err != nil || !ip.IsUnspecified() {
			out = append(out, a)
			continue
		}
		_, rest := ma.SplitFirst(a)
		for _, ifa := range ifaddrs {
			if (ip.To4() != nil) != (ifa.To4() != nil) || ifa.IsLinkLocalUnicast() {
				continue
			}
			first, err := manet.FromIP(ifa)
			if err != nil {
				continue
			}
			out = append(out, first.Encapsulate(rest))
		}
	}
	return out
}

// IdentityFile is the name of the identity key in a data directory.
const IdentityFile = "identity.key"

// LoadIdentity reads the device's Ed25519 identity from dir, creating and
// storing a fresh one (from crypto/rand) on first use, so the peer id — and
// the seat it holds at a table — survives restarts.
func LoadIdentity(dir string) (ed25519.PrivateKey, error) {
	path := filepath.Join(dir, IdentityFile)
	data, err := os.ReadFile(path)
	if err == nil {
		sk, err := lcrypto.UnmarshalPrivateKey(data)
		if err != nil {
			return nil, fmt.Errorf("p2p: %s is not a key (%w): the file is damaged; move it away to make a new identity", path, err)
		}
		raw, err := sk.Raw()
		if err != nil || sk.Type() != lcrypto.Ed25519 || len(raw) != ed25519.PrivateKeySize {
			return nil, fmt.Errorf("p2p: %s is not an Ed25519 key: the file is damaged; move it away to make a new identity", path)
		}
		// The file holds the seed and the public key side by side; a key
		// whose halves disagree would sign what nobody can verify.
		if want := ed25519.NewKeyFromSeed(raw[:ed25519.SeedSize]); !bytes.Equal(want, raw) {
			return nil, fmt.Errorf("p2p: %s: the public key does not match the private key: the file is damaged; move it away to make a new identity", path)
		}
		return ed25519.PrivateKey(raw), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	_, priv, err := ed25519.GenerateKey(crand.Reader)
	if err != nil {
		return nil, err
	}
	sk, err := lcrypto.UnmarshalEd25519PrivateKey(priv)
	if err != nil {
		return nil, err
	}
	data, err = lcrypto.MarshalPrivateKey(sk)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, err
	}
	return priv, nil
}

// PeerIDOf returns the peer id of a seat identity (an Ed25519 key).
func PeerIDOf(id tablelog.Identity) (peer.ID, error) {
	pk, err := lcrypto.UnmarshalEd25519PublicKey(id[:])
	if err != nil {
		return "", err
	}
	return peer.IDFromPublicKey(pk)
}

// IdentityOfPeer returns the Ed25519 key inside a peer id.
func IdentityOfPeer(pid peer.ID) (tablelog.Identity, error) {
	pk, err := pid.ExtractPublicKey()
	if err != nil {
		return tablelog.Identity{}, err
	}
	if pk.Type() != lcrypto.Ed25519 {
		return tablelog.Identity{}, fmt.Errorf("p2p: peer %v has no Ed25519 key", pid)
	}
	raw, err := pk.Raw()
	if err != nil {
		return tablelog.Identity{}, err
	}
	return tablelog.IdentityOf(raw)
}

// connected reports whether the node has a connection to pid.
func (n *Node) connected(pid peer.ID) bool {
	return n.host.Network().Connectedness(pid) == network.Connected
}
