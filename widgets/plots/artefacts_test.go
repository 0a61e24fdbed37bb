package plots

import (
	"image"
	"os"
	"path/filepath"
	"testing"
)

// artefactDir is where the tests keep what a reader may want to look at
// (rendered figures): widgets/testdata/out, git-ignored, next to the
// browser tests' screenshots (.ci/testtools/widgetsbrowser).
func artefactDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "out"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// ink returns the fraction of pixels of img that are not (nearly) white and
// the number of distinct colours (quantised to 4 bits per channel), on every
// second pixel: a blank or one-colour image has almost no ink. (The browser
// tests' screenshots are judged the same way, by browsercheck.Ink.)
func ink(img image.Image) (frac float64, colours int) {
	b := img.Bounds()
	seen := map[uint32]bool{}
	n, inked := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			n++
			if r < 235 || g < 235 || bl < 235 {
				inked++
			}
			seen[(r>>4)<<8|(g>>4)<<4|bl>>4] = true
		}
	}
	if n == 0 {
		return 0, 0
	}
	return float64(inked) / float64(n), len(seen)
}
