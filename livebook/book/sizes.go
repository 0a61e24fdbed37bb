package book

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"sodworkbench.org/workbench/livebook/web"
)

// SizesFile is the report of the live book's file sizes WriteAssets writes
// into <book>/live/: each file raw and gzip-compressed (-9), and what a page
// fetches. The README's table of sizes is copied from it.
const SizesFile = "SIZES.md"

func writeSizes(dir string, man Manifest) error {
	size := func(names ...string) (raw, z int, err error) {
		for _, n := range names {
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(n)))
			if err != nil {
				return 0, 0, err
			}
			raw += len(b)
			if gz, err := os.Stat(filepath.Join(dir, filepath.FromSlash(n)+GzipSuffix)); err == nil {
				z += int(gz.Size()) // the interpreters' compressed copies
			} else {
				z += gzipLen(b)
			}
		}
		return raw, z, nil
	}
	var rows strings.Builder
	row := func(what, fetched string, names ...string) error {
		raw, z, err := size(names...)
		if err != nil {
			return err
		}
		fmt.Fprintf(&rows, "| %s | %s | %s | %s |\n", what, mb(raw), mb(z), fetched)
		return nil
	}
	srcs := make([]string, len(man.Sources))
	var pkgs []string
	for i, s := range man.Sources {
		srcs[i] = "src/" + s
		if p := path.Dir(s); !slices.Contains(pkgs, p) {
			pkgs = append(pkgs, p)
		}
	}
	runtime, _ := web.Files.ReadDir(".")
	var rt []string
	for _, f := range runtime {
		rt = append(rt, f.Name())
	}
	rt = append(rt, "wasm_exec.js")
	for _, r := range []struct {
		what, fetched string
		names         []string
	}{
		{"`" + WasmFile + "` (Go runtime, yaegi, the libraries the cells call and their symbols)", "gzip-compressed (`" + WasmFile + GzipSuffix + "`), unpacked by the page", []string{WasmFile}},
		{"`" + WasmPlotsFile + "` (the same with gonum/plot, its fonts and the static figures)", "gzip-compressed, on the pages that import gonum/plot", []string{WasmPlotsFile}},
		{"ECharts", "only when the page carries no copy of its own (then once)", []string{"echarts.min.js"}},
		{"ECharts-GL", "only for 3-D charts, likewise", []string{"echarts-gl.min.js"}},
		{"the runtime (" + strings.Join(rt, ", ") + "; load.js inlined in the page)", "as is", rt},
		{"the source packages (" + strings.Join(pkgs, ", ") + ": generic, interpreted)", "as is", srcs},
	} {
		if err := row(r.what, r.fetched, r.names...); err != nil {
			return err
		}
	}
	text := "# The live book's files\n\nWritten by cmd/livebook (livebook/book) at each build of the book: each file raw and gzip-compressed (-9).\n\n" +
		"| part | raw | gzip | the page fetches it |\n|---|---|---|---|\n" + rows.String()
	return os.WriteFile(filepath.Join(dir, SizesFile), []byte(text), 0o644)
}

func gzipLen(b []byte) int {
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return z.Len()
}

func mb(n int) string {
	if n < 1e6 {
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
