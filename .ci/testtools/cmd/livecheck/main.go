// Command livecheck runs one page of the live book in headless Chromium,
// as a reader would, from a Jupyter server that serves the book at
// <url>/sod-book/ (the image's server extension, docker/sod_livebook.py).
// It is the image test's browser check of the live book
// (docker/image-test/livebook.sh).
//
//	JUPYTER_TOKEN=... livecheck -url http://127.0.0.1:8888 -page 00-welcome -kernel 00-welcome.ipynb [-shot page.png] [-timeout 10m]
//
// It opens the page with ?run=all (the token in the address, as from the
// URL the server prints), waits until the page's Go interpreter has run
// every cell (data-run-state "done"), and fails unless every cell ran and
// printed what the kernel printed (-kernel: the executed notebook of the
// same book; browsercheck.Comparable), every chart drew, an edited cell
// runs, and no JavaScript exception or console error was seen. The
// browser has no network but the server's (browsercheck.Start). The token
// is read from $JUPYTER_TOKEN, not from the command line, where other users
// could read it. It prints one line per cell and exits 1 on a failure, 2 on
// a usage error.
package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"sodworkbench.org/workbench/testtools/browsercheck"
)

type cellStat struct {
	Cell    int     `json:"cell"`
	MS      float64 `json:"ms"`
	OK      bool    `json:"ok"`
	Error   string  `json:"error"`
	Text    string  `json:"text"`
	Outputs int     `json:"outputs"`
	Known   string  `json:"known"`
	Live    bool    `json:"liveOnly"`
}

type pageStats struct {
	FirstOutput float64     `json:"firstOutput"`
	Ready       float64     `json:"ready"`
	Cells       []*cellStat `json:"cells"`
}

// pageName is what -page accepts: a page of a notebook, NN-name.
var pageName = regexp.MustCompile(`^[0-9][0-9A-Za-z._-]*$`)

func main() {
	base := flag.String("url", "", "the Jupyter server, e.g. http://127.0.0.1:8888 (its token in $JUPYTER_TOKEN)")
	page := flag.String("page", "00-welcome", "the page of the book, NN-name (without .html)")
	kernel := flag.String("kernel", "", "the executed notebook of the page (the book's ipynb/NN-name.ipynb)")
	shot := flag.String("shot", "", "a PNG screenshot of the page after the run")
	timeout := flag.Duration("timeout", 10*time.Minute, "time limit")
	flag.Parse()
	token := os.Getenv("JUPYTER_TOKEN")
	usage := "usage: JUPYTER_TOKEN=... livecheck -url http://127.0.0.1:8888 -page NN-name -kernel NN-name.ipynb [-shot page.png] [-timeout 10m]"
	if *base == "" || token == "" || *kernel == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if !pageName.MatchString(*page) {
		fmt.Fprintf(os.Stderr, "livecheck: -page %q: want a page name like 00-welcome (digits first; letters, digits, . _ -)\n", *page)
		os.Exit(2)
	}
	if *timeout <= 0 {
		fmt.Fprintf(os.Stderr, "livecheck: -timeout %v: want a positive duration\n", *timeout)
		os.Exit(2)
	}
	texts, charts, err := browsercheck.KernelOutputs(*kernel)
	if err != nil {
		fmt.Fprintln(os.Stderr, "livecheck:", err)
		os.Exit(2)
	}
	path, err := browsercheck.FindChromium()
	if err != nil {
		fmt.Fprintln(os.Stderr, "livecheck:", err)
		os.Exit(2)
	}
	tmp, err := os.MkdirTemp("", "livecheck")
	if err != nil {
		fmt.Fprintln(os.Stderr, "livecheck:", err)
		os.Exit(2)
	}
	defer os.RemoveAll(tmp)
	problems, err := check(path, tmp, strings.TrimSuffix(*base, "/"), token, *page, *shot, *timeout, texts, charts)
	if err != nil {
		problems = append(problems, err.Error())
	}
	for _, p := range problems {
		fmt.Println("FAIL", p)
	}
	if len(problems) > 0 {
		fmt.Printf("livecheck: %s FAILED (%d problems)\n", *page, len(problems))
		os.Exit(1)
	}
	fmt.Printf("livecheck: %s ok\n", *page)
}

func check(chromium, tmp, base, token, page, shot string, timeout time.Duration, texts []string, charts []int) ([]string, error) {
	bctx, cancel, err := browsercheck.Start(chromium, tmp, timeout+time.Minute)
	if err != nil {
		return nil, err
	}
	defer cancel()
	tb := browsercheck.OpenTab(bctx)
	defer tb.Close()
	t0 := time.Now()
	addr := base + "/sod-book/" + page + ".html?run=all&token=" + url.QueryEscape(token)
	if err := chromedp.Do(tb.Ctx, chromedp.Navigate(addr)); err != nil {
		return nil, fmt.Errorf("opening %s/sod-book/%s.html: %w", base, page, err)
	}
	state, err := chromedp.Run(tb.Ctx, chromedp.Poll[string](
		`document.body.getAttribute("data-run-state") && document.body.getAttribute("data-run-state") !== "running" ? document.body.getAttribute("data-run-state") : null`,
		chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(500*time.Millisecond)))
	if err != nil {
		return nil, fmt.Errorf("waiting for the page's run (data-run-state): %w", err)
	}
	fmt.Printf("run all: %s in %.1f s\n", state, time.Since(t0).Seconds())
	var probs []string
	if state != "done" {
		probs = append(probs, fmt.Sprintf("data-run-state = %q, want \"done\"", state))
	}
	st, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[pageStats](`window.sodLiveStats`))
	if err != nil {
		return probs, fmt.Errorf("reading window.sodLiveStats: %w", err)
	}
	fmt.Printf("interpreter ready %.1f s, first output %.1f s after the page's script started\n", st.Ready/1000, st.FirstOutput/1000)
	var ran []*cellStat
	for _, c := range st.Cells {
		if c != nil && !c.Live {
			ran = append(ran, c)
		}
	}
	if len(ran) != len(texts) {
		probs = append(probs, fmt.Sprintf("%d cells ran, the notebook has %d", len(ran), len(texts)))
	}
	wantCharts := 0
	for k, c := range ran {
		var reason string
		switch {
		case !c.OK:
			reason = "failed: " + strings.SplitN(c.Error, "\n", 2)[0]
		case k < len(texts) && browsercheck.Comparable(c.Text) != browsercheck.Comparable(texts[k]):
			reason = fmt.Sprintf("printed %q, the kernel %q", browsercheck.Comparable(c.Text), browsercheck.Comparable(texts[k]))
		case k < len(charts) && c.Outputs < charts[k]:
			reason = fmt.Sprintf("shows %d of the kernel's %d charts", c.Outputs, charts[k])
		}
		if k < len(charts) {
			wantCharts += charts[k]
		}
		switch {
		case reason == "":
			fmt.Printf("ok   cell %2d  %6.2f s  as the kernel\n", c.Cell, c.MS/1000)
		case c.Known != "":
			fmt.Printf("known cell %2d: %s (listed: %s)\n", c.Cell, reason, c.Known)
		default:
			probs = append(probs, fmt.Sprintf("cell %d %s", c.Cell, reason))
		}
	}
	out, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[string](`(async function () {
		var n = window.sodLiveBook.count - 1;
		var st = await window.sodLiveBook.run(n, "%%\nfmt.Println(\"edited\", 6*7)");
		return st.ok ? st.text : "error: " + st.error; })()`, chromedp.EvalAwaitPromise))
	if err != nil || strings.TrimSpace(out) != "edited 42" {
		probs = append(probs, fmt.Sprintf("an edited cell printed %q (%v), want \"edited 42\"", out, err))
	} else {
		fmt.Println("ok   an edited cell ran: edited 42")
	}
	rep, err := tb.Inspect(30 * time.Second)
	if err != nil {
		return probs, err
	}
	probs = append(probs, rep.ChartProblems(len(rep.Charts))...)
	probs = append(probs, rep.ErrorsExcept(nil)...)
	fmt.Printf("charts: %d drawn, the kernel showed %d\n", len(rep.Charts), wantCharts)
	if shot != "" && len(rep.Full) > 0 {
		if err := os.WriteFile(shot, rep.Full, 0o644); err != nil {
			return probs, err
		}
	}
	return probs, nil
}
