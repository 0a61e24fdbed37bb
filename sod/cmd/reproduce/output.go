package main

import "sodworkbench.org/workbench/sod/experiments"

// write writes <out>/<name>.json (v) and <out>/<name>_<table>.csv (each
// table) as -format asks.
func (c *common) write(name string, v any, tables []experiments.CSVTable) error {
	format, err := experiments.ParseFileFormat(c.format)
	if err != nil {
		return err
	}
	return experiments.WriteResultFiles(c.out, name, format, v, tables)
}
