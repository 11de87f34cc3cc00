package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/go-hbase/hbase/hbasetrace"
)

// metricOut is one scan metric as scan prints it after its rows.
type metricOut struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

// scanMetricsWanted reads scan's METRICS => ['NAME', ...] and ALL_METRICS => true: the
// metrics to print after the rows (names), all of them (all), or none (both zero).
func scanMetricsWanted(h value) (names []string, all bool, err error) {
	if v, ok := h.get("ALL_METRICS"); ok {
		if all, err = boolVal(v, "ALL_METRICS"); err != nil {
			return nil, false, err
		}
	}
	if v, ok := h.get("METRICS"); ok {
		if v.kind != vArray {
			v = value{kind: vArray, arr: []value{v}}
		}
		for _, e := range v.arr {
			n, err := strVal(e, "METRICS: metric name")
			if err != nil {
				return nil, false, err
			}
			names = append(names, n)
		}
		if len(names) == 0 {
			return nil, false, fmt.Errorf("METRICS: empty list: name the metrics, or use ALL_METRICS => true")
		}
	}
	return names, all, nil
}

// scanMetricValues are a scan's metrics by HBase's names (ScanMetrics): the client's count of
// RPCs, regions, retries and response bytes, and every metric the servers sent.
func scanMetricValues(m hbasetrace.ScanMetrics) map[string]int64 {
	out := map[string]int64{"RPC_CALLS": m.RPCs, "REGIONS_SCANNED": m.Regions, "RPC_RETRIES": m.Retries,
		"BYTES_IN_RESULTS": m.ResponseBytes}
	for k, v := range m.Server {
		out[k] = v
	}
	return out
}

// pickMetrics is what scan prints: every metric by name (all), or those of names in their
// order; a name this client does not keep is refused, as a typo would be.
func pickMetrics(m hbasetrace.ScanMetrics, names []string, all bool) ([]metricOut, error) {
	values := scanMetricValues(m)
	if all {
		names = slices.Sorted(func(yield func(string) bool) {
			for k := range values {
				if !yield(k) {
					return
				}
			}
		})
	}
	out := make([]metricOut, 0, len(names))
	for _, n := range names {
		v, ok := values[n]
		if !ok {
			return nil, fmt.Errorf("METRICS: no metric %s in this scan's (ALL_METRICS => true lists them)", quoteShell(n))
		}
		out = append(out, metricOut{Name: n, Value: v})
	}
	return out, nil
}

// printMetrics writes the metrics as the shell does, after the rows.
func printMetrics(w io.Writer, ms []metricOut) {
	if len(ms) == 0 {
		return
	}
	fmt.Fprintln(w, twoHeaders("METRIC", "VALUE"))
	for _, m := range ms {
		fmt.Fprintln(w, twoColumns(m.Name, strconv.FormatInt(m.Value, 10)))
	}
}
