package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// A chart is a column of panels, one per workload (and mode), time on the x axis and
// latency on a log y axis; -plot draws one run's p50/p95/p99, -compare several runs'.

type chartLine struct {
	name   string
	xys    plotter.XYs
	color  int  // index into plotutil's palette
	dashed bool // p99 of a compared run
}

type panel struct {
	title string
	lines []chartLine
}

// percentileLine is one percentile of a series as a line, windows without operations left out.
func percentileLine(series []point, pick func(point) int64) plotter.XYs {
	var xys plotter.XYs
	for _, p := range series {
		if p.Ops > 0 {
			xys = append(xys, plotter.XY{X: p.T, Y: float64(max(pick(p), 1))})
		}
	}
	return xys
}

var (
	pickP50 = func(p point) int64 { return p.P50Micros }
	pickP95 = func(p point) int64 { return p.P95Micros }
	pickP99 = func(p point) int64 { return p.P99Micros }
)

// runPanels is -plot for one report: a panel per result with its p50, p95 and p99.
func runPanels(rep *report) []panel {
	var out []panel
	for _, r := range rep.Results {
		title := r.Workload
		if r.Mode != "" {
			title += " " + r.Mode
		}
		title += fmt.Sprintf(" (%.0f ops/s, %d callers", r.OpsPerSec, rep.Settings.Concurrency)
		if r.OfferedRate > 0 {
			title += fmt.Sprintf(", offered %.0f ops/s", r.OfferedRate)
		}
		title += ")"
		out = append(out, panel{title: title, lines: []chartLine{
			{name: "p50", xys: percentileLine(r.Series, pickP50), color: 0},
			{name: "p95", xys: percentileLine(r.Series, pickP95), color: 1},
			{name: "p99", xys: percentileLine(r.Series, pickP99), color: 2},
		}})
	}
	return out
}

// drawChart writes panels to path: an SVG file, or a PNG one when path ends in .png.
func drawChart(path, title string, panels []panel) error {
	var plots [][]*plot.Plot
	for _, pn := range panels {
		p, err := panelPlot(pn)
		if err != nil {
			return err
		}
		if p != nil {
			plots = append(plots, []*plot.Plot{p})
		}
	}
	if len(plots) == 0 {
		return errors.New("no time series to draw (a run shorter than -interval, or a JSON report without series)")
	}
	plots[0][0].Title.Text = title + "\n" + plots[0][0].Title.Text
	const width, panelHeight = 22 * vg.Centimeter, 8 * vg.Centimeter
	height := panelHeight * vg.Length(len(plots))
	var img interface {
		vg.CanvasSizer
		io.WriterTo
	}
	if strings.HasSuffix(strings.ToLower(path), ".png") {
		img = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(96))}
	} else {
		img = vgsvg.New(width, height)
	}
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2,
		PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4, PadY: vg.Millimeter * 4}
	canvases := plot.Align(plots, tiles, draw.New(img))
	for i := range plots {
		plots[i][0].Draw(canvases[i][0])
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := img.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// panelPlot is one panel; nil when none of its lines has a point.
func panelPlot(pn panel) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = pn.title
	p.X.Label.Text = "time (s)"
	p.Y.Label.Text = "latency (µs)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks125{}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	drawn := 0
	for _, l := range pn.lines {
		if len(l.xys) == 0 {
			continue
		}
		line, err := plotter.NewLine(l.xys)
		if err != nil {
			return nil, err
		}
		line.Color = plotutil.Color(l.color)
		line.Width = vg.Points(1.2)
		if l.dashed {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		p.Add(line)
		p.Legend.Add(l.name, line)
		drawn++
	}
	if drawn == 0 {
		return nil, nil
	}
	// A log axis needs room: one flat line would make it empty.
	if p.Y.Min >= p.Y.Max/1.5 {
		p.Y.Min, p.Y.Max = p.Y.Min/1.5, p.Y.Max*1.5
	}
	return p, nil
}

// plotFile reports whether -plot can write name: .svg or .png.
func plotFile(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".svg") || strings.HasSuffix(n, ".png")
}

// logTicks125 marks a log axis at 1, 2, ..., 9 times each power of ten and labels 1, 2 and 5:
// latencies span one or two decades, where powers of ten alone leave an axis unlabelled.
type logTicks125 struct{}

func (logTicks125) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	if lo <= 0 || hi < lo {
		return nil
	}
	for e := math.Floor(math.Log10(lo)); math.Pow(10, e) <= hi; e++ {
		base := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := float64(m) * base
			if v < lo || v > hi {
				continue
			}
			label := ""
			if m == 1 || m == 2 || m == 5 {
				label = strconv.FormatFloat(v, 'f', -1, 64)
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: label})
		}
	}
	return ticks
}
