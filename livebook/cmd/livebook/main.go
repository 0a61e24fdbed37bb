// Command livebook makes the HTML book written by scripts/book.sh live:
// every code cell of every notebook page editable and runnable in the
// browser, with the Go interpreter built from cmd/sodlive.
//
//	livebook -book DIR -wasm FILE -wasm-plots FILE [-known FILE] [-packages FILE] [-notebooks DIR]
//
// It writes DIR/live/ (the runtime, the interpreters and their
// gzip-compressed copies, ECharts, the source packages, SIZES.md) and adds
// the runtime to every page DIR/NAME.html of a notebook
// -notebooks/NAME.ipynb. -known names the fidelity
// report's JSON (notebook -> cell -> reason) whose cells are marked as not
// runnable in the browser.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"sodworkbench.org/workbench/livebook/book"
	"sodworkbench.org/workbench/livebook/cells"
	"sodworkbench.org/workbench/widgets"
)

func main() {
	dir := flag.String("book", "", "the book's folder (scripts/book.sh -o)")
	wasm := flag.String("wasm", "", "the interpreter, cmd/sodlive built with GOOS=js GOARCH=wasm")
	wasmPlots := flag.String("wasm-plots", "", "the same built with -tags sodlive_plots")
	packages := flag.String("packages", "symbols/packages.txt", "the symbols' package list (which need the plots build)")
	notebooks := flag.String("notebooks", "../notebooks", "the notebooks (their cells, with those the export leaves out)")
	knownFile := flag.String("known", "", "JSON of the cells that cannot run in the browser (optional)")
	flag.Parse()
	if *dir == "" || *wasm == "" || *wasmPlots == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: livebook -book DIR -wasm FILE -wasm-plots FILE [-known FILE] [-packages FILE] [-notebooks DIR]")
		os.Exit(2)
	}
	if err := run(*dir, *wasm, *wasmPlots, *knownFile, *packages, *notebooks); err != nil {
		fmt.Fprintln(os.Stderr, "livebook:", err)
		os.Exit(1)
	}
}

func run(dir, wasm, wasmPlots, knownFile, packages, notebooks string) error {
	echarts, err := widgets.AssetsDir()
	if err != nil {
		return err
	}
	// wasm_exec.js of the Go that builds the interpreters (the go command's).
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT (for wasm_exec.js): %v", err)
	}
	a := book.Assets{Wasm: wasm, WasmPlots: wasmPlots, WasmExec: filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"), ECharts: echarts, Sources: map[string]string{}}
	for _, p := range cells.SourcePackages {
		out, err := exec.Command("go", "list", "-f", "{{.Dir}}", p).Output()
		if err != nil {
			return fmt.Errorf("go list %s: %v", p, err)
		}
		a.Sources[p] = strings.TrimSpace(string(out))
	}
	if err := book.WriteAssets(dir, a); err != nil {
		return err
	}
	known := map[string]map[int]string{}
	if knownFile != "" {
		b, err := os.ReadFile(knownFile)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &known); err != nil {
			return fmt.Errorf("%s: %v", knownFile, err)
		}
	}
	list, err := os.ReadFile(packages)
	if err != nil {
		return err
	}
	var plots []string
	for _, l := range strings.Split(string(list), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[1] == "plots" {
			plots = append(plots, f[0])
		}
	}
	pages, err := book.Pages(dir, notebooks, known, plots)
	if err != nil {
		return err
	}
	fmt.Printf("livebook: %d live pages in %s\n", len(pages), dir)
	return nil
}
