package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// TestChartLabelsApart: the running totals' end labels of seats a few
// points apart stand apart, each readable, inside the chart; seats on the
// same total share one label.
func TestChartLabelsApart(t *testing.T) {
	test.NewTempApp(t)
	series := [][]int{{0, 60, 120, 182}, {0, 58, 121, 178}, {0, 20, 90, 180}, {0, 30, 70, 180}, {0, 10, 20, 30}}
	c := newChart(series)
	w := test.NewTempWindow(t, c)
	w.Resize(fyne.NewSize(300, 200))
	size := fyne.NewSize(280, 180)
	c.Resize(size)
	var labels []*canvas.Text
	for _, o := range test.TempWidgetRenderer(t, c).Objects() {
		if txt, ok := o.(*canvas.Text); ok && !txt.Hidden {
			labels = append(labels, txt)
		}
	}
	var got []string
	for _, l := range labels {
		got = append(got, l.Text)
	}
	slices.Sort(got)
	if want := []string{"178", "180", "182", "30"}; !slices.Equal(got, want) {
		t.Fatalf("labels %v, want %v", got, want)
	}
	for i, a := range labels {
		if a.Position().Y < 0 || a.Position().Y+chartLabelGap > size.Height {
			t.Errorf("label %s at y %.0f, outside the chart", a.Text, a.Position().Y)
		}
		for _, b := range labels[i+1:] {
			if d := a.Position().Y - b.Position().Y; d > -chartLabelGap && d < chartLabelGap {
				t.Errorf("labels %s and %s %.0f px apart", a.Text, b.Text, max(d, -d))
			}
		}
	}
}

// TestSpread: labels move apart as little as they must, in their order,
// and within the bounds.
func TestSpread(t *testing.T) {
	cases := []struct {
		tops, want []float32
	}{
		{nil, nil},
		{[]float32{50}, []float32{50}},
		{[]float32{10, 80}, []float32{10, 80}},
		{[]float32{50, 52}, []float32{50, 60}},
		{[]float32{52, 50, 51}, []float32{70, 50, 60}},
		{[]float32{-5, 95}, []float32{0, 90}},
		{[]float32{98, 99}, []float32{80, 90}},
	}
	for _, c := range cases {
		if got := spread(c.tops, 10, 0, 90); !slices.Equal(got, c.want) {
			t.Errorf("spread(%v) = %v, want %v", c.tops, got, c.want)
		}
	}
}
