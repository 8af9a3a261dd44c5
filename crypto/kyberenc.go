package crypto

import (
	"crypto/cipher"
	"crypto/sha3"
	"fmt"
	"io"
	"reflect"

	"go.dedis.ch/kyber/v4"
)

// The shuffle proof hands its messages to the suite as structs whose fields
// are points, scalars and slices of them. writeObjects and readObjects walk
// such values in field order; that order is the proof's wire layout.

var (
	pointType  = reflect.TypeFor[kyber.Point]()
	scalarType = reflect.TypeFor[kyber.Scalar]()
)

func writeObjects(w io.Writer, objs ...any) error {
	for _, o := range objs {
		if err := writeValue(w, reflect.ValueOf(o)); err != nil {
			return err
		}
	}
	return nil
}

func writeValue(w io.Writer, v reflect.Value) error {
	if v.IsValid() && v.Type().Implements(reflect.TypeFor[kyber.Marshaling]()) &&
		v.Kind() != reflect.Struct {
		if (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) && v.IsNil() {
			return fmt.Errorf("crypto: proof message holds a nil %s", v.Type())
		}
		m, ok := v.Interface().(kyber.Marshaling)
		if !ok {
			return fmt.Errorf("crypto: cannot encode %s", v.Type())
		}
		_, err := m.MarshalTo(w)
		return err
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return fmt.Errorf("crypto: proof message holds a nil %s", v.Type())
		}
		return writeValue(w, v.Elem())
	case reflect.Struct, reflect.Slice, reflect.Array:
		return eachPart(v, func(p reflect.Value) error { return writeValue(w, p) })
	}
	return fmt.Errorf("crypto: cannot encode %s in a proof", v.Type())
}

func readObjects(r io.Reader, g *kyberGroup, objs ...any) error {
	for _, o := range objs {
		if err := readValue(r, g, reflect.ValueOf(o)); err != nil {
			return err
		}
	}
	return nil
}

// readValue fills v from r. Nil point and scalar slots are allocated from
// the group first, which is why v must be settable there.
func readValue(r io.Reader, g *kyberGroup, v reflect.Value) error {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			if !v.CanSet() {
				return fmt.Errorf("crypto: cannot decode into a nil %s", v.Type())
			}
			switch v.Type() {
			case pointType:
				v.Set(reflect.ValueOf(g.Point()))
			case scalarType:
				v.Set(reflect.ValueOf(g.Scalar()))
			default:
				return fmt.Errorf("crypto: cannot decode into %s", v.Type())
			}
		}
		m, ok := v.Interface().(kyber.Marshaling)
		if !ok {
			return fmt.Errorf("crypto: cannot decode into %s", v.Type())
		}
		_, err := m.UnmarshalFrom(r)
		return err
	case reflect.Pointer:
		if v.IsNil() {
			return fmt.Errorf("crypto: cannot decode through a nil %s", v.Type())
		}
		if m, ok := v.Interface().(kyber.Marshaling); ok {
			_, err := m.UnmarshalFrom(r)
			return err
		}
		return readValue(r, g, v.Elem())
	case reflect.Struct, reflect.Slice, reflect.Array:
		return eachPart(v, func(p reflect.Value) error { return readValue(r, g, p) })
	}
	return fmt.Errorf("crypto: cannot decode %s in a proof", v.Type())
}

// eachPart calls f on each field of the struct v, or each element of the
// slice or array v, in order, and stops at the first error.
func eachPart(v reflect.Value, f func(reflect.Value) error) error {
	n := v.Len
	part := v.Index
	if v.Kind() == reflect.Struct {
		n, part = v.NumField, v.Field
	}
	for i := range n() {
		if err := f(part(i)); err != nil {
			return err
		}
	}
	return nil
}

// shakeXOF is a kyber.XOF over cSHAKE256 from the standard library.
type shakeXOF struct {
	seed      []byte
	s         *sha3.SHAKE
	squeezing bool
}

const xofDomain = "njet/crypto/v1/xof"

func newShakeXOF(seed []byte) *shakeXOF {
	x := &shakeXOF{seed: append([]byte(nil), seed...)}
	x.Reset()
	return x
}

func (x *shakeXOF) Reset() {
	x.s = sha3.NewCSHAKE256(nil, []byte(xofDomain))
	x.squeezing = false
	x.absorb(x.seed)
}

func (x *shakeXOF) absorb(b []byte) {
	// Writing to a SHAKE never fails.
	_, _ = x.s.Write(b)
}

// Write absorbs b. After output has been read, it first reseeds, so the new
// input is chained onto everything read so far.
func (x *shakeXOF) Write(b []byte) (int, error) {
	if x.squeezing {
		x.Reseed()
	}
	x.absorb(b)
	return len(b), nil
}

func (x *shakeXOF) Read(b []byte) (int, error) {
	x.squeezing = true
	return x.s.Read(b)
}

func (x *shakeXOF) XORKeyStream(dst, src []byte) {
	buf := make([]byte, len(src))
	x.squeezing = true
	_, _ = x.s.Read(buf) // reading from a SHAKE never fails
	for i := range src {
		dst[i] = src[i] ^ buf[i]
	}
}

// Reseed replaces the state by a fresh one keyed with 64 bytes of output.
func (x *shakeXOF) Reseed() {
	var key [64]byte
	x.squeezing = true
	_, _ = x.s.Read(key[:])
	x.s = sha3.NewCSHAKE256(nil, []byte(xofDomain+"/reseed"))
	x.squeezing = false
	x.absorb(key[:])
}

// Clone copies the state. sha3.SHAKE holds only arrays, integers and a
// read-only slice, so a struct copy is an independent state.
func (x *shakeXOF) Clone() kyber.XOF {
	s := *x.s
	return &shakeXOF{seed: x.seed, s: &s, squeezing: x.squeezing}
}

var (
	_ kyber.XOF     = (*shakeXOF)(nil)
	_ cipher.Stream = (*shakeXOF)(nil)
)
