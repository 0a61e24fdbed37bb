package widgets

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGalleryPage(t *testing.T) {
	items, err := Gallery(1)
	if err != nil {
		t.Fatal(err)
	}
	p := Page{Title: "gallery"}
	for _, it := range items {
		if it.Chart != nil {
			p.Add(it.Chart)
		} else {
			p.AddHTML(it.HTML)
		}
	}
	dir := filepath.Join("testdata", "out")
	os.MkdirAll(dir, 0o755)
	f, err := os.Create(filepath.Join(dir, "gallery.html"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
}
