package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func itoa(i int) string { return strconv.Itoa(i) }

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func joinF(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = ftoa(x)
	}
	return strings.Join(s, " ")
}

// write writes <out>/<name>.json (v) and <out>/<name>_<suffix>.csv (each
// table) as -format asks.
func (c *common) write(name string, v any, tables map[string][][]string) error {
	if c.format != "csv" {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(c.out, name+".json"), b, 0o644); err != nil {
			return err
		}
	}
	if c.format == "json" {
		return nil
	}
	for suffix, rows := range tables {
		f, err := os.Create(filepath.Join(c.out, name+"_"+suffix+".csv"))
		if err != nil {
			return err
		}
		w := csv.NewWriter(f)
		w.WriteAll(rows)
		if err := w.Error(); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
