//go:build sodlive_plots

package symbols

// See deps.go: the packages of the plots build (gen.PlotsTag).
import _ "gonum.org/v1/plot"
