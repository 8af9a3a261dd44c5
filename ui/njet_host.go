package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2/widget"

	"github.com/njetlan/njet/engine"
)

// njetHost is Njet!'s part of the host form: the edition, with its
// player counts, the short game (Classic only) and the target score.
type njetHost struct {
	f       *HostForm
	Edition *widget.RadioGroup
	Short   *widget.Check
	Target  *widget.Entry
}

// hostNjet puts Njet!'s choices on the host form.
func hostNjet(f *HostForm) hostPart {
	h := &njetHost{f: f}
	h.Short = widget.NewCheck(tr("lan.host.short", "Short game"), nil)
	h.Target = widget.NewEntry()
	h.Target.SetPlaceHolder(tr("lan.host.target-hint", "none"))
	// One under the other, like the games.
	h.Edition = widget.NewRadioGroup([]string{editionName(engine.Classic), editionName(engine.Modern)}, nil)
	h.Edition.Required = true
	h.Edition.SetSelected(editionName(engine.Classic))
	h.Edition.OnChanged = func(string) { h.editionChoices() }
	h.editionChoices()
	return hostPart{
		head: []*widget.FormItem{widget.NewFormItem(tr("newgame.edition", "Edition"), h.Edition)},
		tail: []*widget.FormItem{
			widget.NewFormItem(tr("lan.host.variant", "Variant"), h.Short),
			widget.NewFormItem(tr("lan.host.target", "Target score"), h.Target),
		},
		config: h.config,
		fields: h,
	}
}

// editionChoices offers the edition's player counts and its short game.
func (h *njetHost) editionChoices() {
	e := h.edition()
	h.f.playerChoices(e.MinPlayers(), e.MaxPlayers(), min(4, e.MaxPlayers()))
	if e == engine.Classic {
		h.Short.Enable()
	} else {
		h.Short.SetChecked(false)
		h.Short.Disable()
	}
}

// edition is the edition chosen.
func (h *njetHost) edition() engine.Edition {
	if h.Edition.Selected == editionName(engine.Modern) {
		return engine.Modern
	}
	return engine.Classic
}

// config reads Njet!'s choices: the edition, the short game, a target
// score (a whole number above 0, not with the short game).
func (h *njetHost) config(cfg *LANHostConfig) error {
	cfg.Variant, cfg.Short = h.edition().String(), h.Short.Checked
	if t := strings.TrimSpace(h.Target.Text); t != "" {
		var err error
		if cfg.Target, err = strconv.Atoi(t); err != nil || cfg.Target <= 0 {
			return fmt.Errorf("%s", tr("lan.host.bad-target", "The target score is a whole number above 0."))
		}
	}
	if cfg.Target > 0 && cfg.Short {
		return fmt.Errorf("%s", tr("lan.host.short-target", "A short game has no target score."))
	}
	return nil
}
