package reach

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Probe writes screens as lines of JSON, each only when it differs from
// the last one written.
type Probe struct {
	w    io.Writer
	last []byte
}

// NewProbe writes to w.
func NewProbe(w io.Writer) *Probe { return &Probe{w: w} }

// Write writes s unless it is the screen written last.
func (p *Probe) Write(s *Screen) error {
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("reach: probe: %w", err)
	}
	if bytes.Equal(b, p.last) {
		return nil
	}
	p.last = b
	if _, err := p.w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("reach: probe: %w", err)
	}
	return nil
}

// ReadScreen decodes one line a Probe wrote.
func ReadScreen(line []byte) (*Screen, error) {
	var s Screen
	if err := json.Unmarshal(line, &s); err != nil {
		return nil, fmt.Errorf("reach: not a probe line: %w", err)
	}
	return &s, nil
}
