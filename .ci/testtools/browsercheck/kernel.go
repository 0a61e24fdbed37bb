package browsercheck

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// KernelOutputs returns, per code cell of an executed notebook (an .ipynb
// written by nbconvert), the text the kernel printed and how many HTML
// outputs with a chart of the widgets package it showed.
func KernelOutputs(file string) (texts []string, charts []int, err error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	var nb struct {
		Cells []struct {
			Type    string `json:"cell_type"`
			Outputs []struct {
				Type string          `json:"output_type"`
				Text json.RawMessage `json:"text"`
				Data map[string]any  `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	for _, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		var text strings.Builder
		n := 0
		for _, o := range c.Outputs {
			switch o.Type {
			case "stream":
				var lines []string
				if json.Unmarshal(o.Text, &lines) != nil {
					var s string
					_ = json.Unmarshal(o.Text, &s)
					lines = []string{s}
				}
				text.WriteString(strings.Join(lines, ""))
			case "display_data":
				if h, ok := o.Data["text/html"]; ok && strings.Contains(fmt.Sprint(h), `class="sodw"`) {
					n++
				}
			}
		}
		texts = append(texts, text.String())
		charts = append(charts, n)
	}
	return texts, charts, nil
}

// volatile is what differs between two correct runs of a cell: GoNB's
// panic traces and "exit status" lines, timings, the module's folder.
var volatile = []*regexp.Regexp{
	regexp.MustCompile(`(?m)^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d `), // log timestamps
	regexp.MustCompile(`\d+(\.\d+)?\s?(ns|µs|ms|s)\b`),         // durations
	regexp.MustCompile(`(?m)^workbench module: .*$`),           // the set-up cell
	regexp.MustCompile(`(?m)^offline ECharts assets: .*$`),     // a folder on the kernel's machine
	regexp.MustCompile(`\(build: [^)]*\)`),                     // version stamp
	regexp.MustCompile(`(/tmp/[\w.-]*?)\d{6,}`),                // os.MkdirTemp's random names
	regexp.MustCompile(`(?m)^(exit status \d+|panic: .*|goroutine .*|\s+/.*\.go:\d+.*)$`),
}

// Comparable is a cell's text without what differs between two correct
// runs (volatile) and without trailing blanks and empty lines, for
// comparing the live book's output of a cell with the kernel's.
func Comparable(s string) string {
	for _, re := range volatile {
		s = re.ReplaceAllString(s, "")
	}
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimRight(l, " \t"); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}
