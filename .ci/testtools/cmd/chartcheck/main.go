// Command chartcheck loads HTML pages (for example notebooks exported by
// nbconvert, or the book made by scripts/book.sh) in headless Chromium
// without network access and checks that every chart of the widgets
// package drew and that no script failed. It exits with status 1 if a page
// has a problem.
//
//	go -C .ci/testtools run ./cmd/chartcheck [-wait 15s] [-shots dir] page.html...
//
// Requests that nbconvert's template makes on its own (require.js and
// MathJax from CDNs) fail without network and are not counted; -allow adds
// more URL parts to ignore. Set SOD_CHROMIUM to choose the browser.
package main

import (
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"time"

	"sodworkbench.org/workbench/testtools/browsercheck"
)

func main() {
	wait := flag.Duration("wait", 15*time.Second, "how long to wait for the charts of a page to finish drawing")
	shots := flag.String("shots", "", "directory for a full-page PNG screenshot of each page and one PNG per chart")
	allow := flag.String("allow", "", "comma-separated URL parts of failing requests to ignore (besides nbconvert's CDNs)")
	minCharts := flag.Int("min", 0, "fail a page with fewer charts than this")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: chartcheck [-wait 15s] [-shots dir] [-allow a,b] [-min n] page.html...")
		os.Exit(2)
	}
	path, err := browsercheck.FindChromium()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chartcheck:", err)
		os.Exit(2)
	}
	tmp, err := os.MkdirTemp("", "chartcheck")
	if err != nil {
		fmt.Fprintln(os.Stderr, "chartcheck:", err)
		os.Exit(2)
	}
	defer os.RemoveAll(tmp)
	ctx, cancel, err := browsercheck.Start(path, tmp, time.Duration(flag.NArg()+1)*2*time.Minute)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chartcheck:", err)
		os.Exit(2)
	}
	defer cancel()
	allowed := append([]string(nil), browsercheck.NbconvertAllowed...)
	for _, a := range strings.Split(*allow, ",") {
		if a = strings.TrimSpace(a); a != "" {
			allowed = append(allowed, a)
		}
	}
	failed := 0
	for _, page := range flag.Args() {
		abs, err := filepath.Abs(page)
		if err != nil {
			fmt.Fprintln(os.Stderr, "chartcheck:", err)
			os.Exit(2)
		}
		rep, err := browsercheck.Load(ctx, "file://"+abs, *wait)
		var probs []string
		if err != nil {
			probs = append(probs, err.Error())
		} else {
			probs = append(probs, rep.ChartProblems(-1)...)
			for _, e := range rep.Errors(allowed) {
				probs = append(probs, "page error: "+e)
			}
			if len(rep.Charts) < *minCharts {
				probs = append(probs, fmt.Sprintf("%d charts, want at least %d", len(rep.Charts), *minCharts))
			}
			if *shots != "" && len(rep.Full) > 0 {
				if err := os.MkdirAll(*shots, 0o755); err == nil {
					base := strings.TrimSuffix(filepath.Base(page), filepath.Ext(page))
					_ = os.WriteFile(filepath.Join(*shots, base+".png"), rep.Full, 0o644)
					for i, c := range rep.Charts {
						if img, ok := rep.Shots[c.ID]; ok {
							if f, err := os.Create(filepath.Join(*shots, fmt.Sprintf("%s-chart%02d.png", base, i+1))); err == nil {
								_ = png.Encode(f, img)
								f.Close()
							}
						}
					}
				}
			}
		}
		if len(probs) > 0 {
			failed++
			fmt.Printf("FAIL %s: %d charts\n", page, len(rep.Charts))
			for _, p := range probs {
				fmt.Printf("     %s\n", p)
			}
			continue
		}
		fmt.Printf("ok   %s: %d charts drawn\n", page, len(rep.Charts))
	}
	if failed > 0 {
		fmt.Printf("%d of %d pages have problems\n", failed, flag.NArg())
		os.Exit(1)
	}
}
