package widgets

import (
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
)

// ShowErrorPrefix starts the line Show writes to standard error when it
// cannot show a value. The notebook harness fails a notebook whose output
// has such a line, as it fails one with a panic.
const ShowErrorPrefix = "widgets: cannot show: "

// Show shows its arguments in the output of the current cell, in order,
// or, when one of them is a non-nil error, shows the error there instead:
// the one call a notebook makes to show a chart, a table or a static
// figure. It takes all the results of a figure's builder at once, whatever
// their number, or a value alone,
//
//	widgets.Show(figures.SuccessRatesChart(res, 0.15, "(a)")) // (chart, error)
//	widgets.Show(figures.EFSZonesCharts(insts))              // (table, charts, error)
//	widgets.Show(figures.WindowsTable(res))                  // a table alone
//	widgets.Show(widgets.Explore(ctx, controls, draw))       // a widget's error alone
//
// so that a cell names the figure and nothing else. An error is never
// dropped: it is written to standard error (a line starting with
// ShowErrorPrefix, which GoNB shows in red and the notebook harness
// reports) and, in a notebook, as a red box in place of the figure; the
// rest of the cell still runs, as after a failed figure in a paper's draft.
//
// A value may be
//
//   - a Chart (any X.Chart result, or any go-echarts chart): as [Display];
//   - a Table or *Table: as [DisplayTable];
//   - a value with a method SVG() (string, error), such as plots.Sized (a
//     static figure at a size): the SVG;
//   - a value with a method HTML() (string, error): that HTML;
//   - a value with a method Chart(...Option) returning a chart and an
//     error, such as Curves or Landscape: its chart;
//   - a slice or array of any of these: each element, in order;
//   - nil (a nil error among them): nothing.
//
// Anything else is reported as an error naming its type. Outside a
// notebook Show builds the output (so that the error, if any, is
// reported) and shows nothing.
func Show(v ...any) {
	show(notebookSink{}, os.Stderr, v...)
}

// show is Show with the notebook and the error stream as parameters, for
// the tests.
func show(s sink, stderr io.Writer, vs ...any) {
	var errs []error
	for _, v := range vs {
		if err, ok := v.(error); ok && !isNil(err) {
			errs = append(errs, err)
		}
	}
	err := errors.Join(errs...)
	if err == nil {
		for i, v := range vs {
			if _, ok := v.(error); ok {
				continue
			}
			if e := showValue(s, v); e != nil {
				if len(vs) > 1 {
					e = fmt.Errorf("argument %d of %d: %w", i+1, len(vs), e)
				}
				errs = append(errs, e)
			}
		}
		err = errors.Join(errs...)
	}
	if err == nil {
		return
	}
	fmt.Fprintf(stderr, "%s%v\n", ShowErrorPrefix, err)
	if s.active() {
		s.displayHTML(errorHTML(err))
		s.sync()
	}
}

// errorHTML is the red box shown in place of a figure that failed.
func errorHTML(err error) string {
	return `<pre style="color:#b00020;background:#fdecea;border:1px solid #b00020;padding:6px;white-space:pre-wrap;">` +
		escapeHTML(ShowErrorPrefix+err.Error()) + `</pre>`
}

type (
	svgShower  interface{ SVG() (string, error) }
	htmlShower interface{ HTML() (string, error) }
)

var (
	errorType  = reflect.TypeFor[error]()
	chartType  = reflect.TypeFor[Chart]()
	optionType = reflect.TypeFor[[]Option]()
)

// showValue shows v on s (see Show for the kinds of values).
func showValue(s sink, v any) error {
	switch x := v.(type) {
	case nil:
		return nil
	case Chart:
		if isNil(x) {
			return fmt.Errorf("%w: a nil %T", ErrBadInput, v)
		}
		return displayTo(s, x)
	case Table:
		return showHTML(s, x)
	case *Table:
		if x == nil {
			return fmt.Errorf("%w: a nil *widgets.Table", ErrBadInput)
		}
		return showHTML(s, *x)
	case svgShower:
		if isNil(x) {
			return fmt.Errorf("%w: a nil %T", ErrBadInput, v)
		}
		svg, err := x.SVG()
		if err != nil {
			return err
		}
		if s.active() {
			s.displaySVG(svg)
			s.sync()
		}
		return nil
	case htmlShower:
		if isNil(x) {
			return fmt.Errorf("%w: a nil %T", ErrBadInput, v)
		}
		return showHTML(s, x)
	}
	rv := reflect.ValueOf(v)
	if m := rv.MethodByName("Chart"); m.IsValid() && chartMethod(m.Type()) {
		out := m.Call(nil)
		if err, _ := out[1].Interface().(error); err != nil {
			return err
		}
		return showValue(s, out[0].Interface())
	}
	if k := rv.Kind(); k == reflect.Slice || k == reflect.Array {
		var errs []error
		for i := range rv.Len() {
			if err := showValue(s, rv.Index(i).Interface()); err != nil {
				errs = append(errs, fmt.Errorf("element %d of %d: %w", i+1, rv.Len(), err))
			}
		}
		return errors.Join(errs...)
	}
	return fmt.Errorf("%w: Show cannot show a %T (want a chart, a table, a static figure, or a slice of them)", ErrBadInput, v)
}

// chartMethod reports whether t is func(...Option) (C, error) with C a Chart.
func chartMethod(t reflect.Type) bool {
	return t.NumIn() == 1 && t.IsVariadic() && t.In(0) == optionType &&
		t.NumOut() == 2 && t.Out(0).Implements(chartType) && t.Out(1) == errorType
}

// showHTML shows the HTML of h on s.
func showHTML(s sink, h htmlShower) error {
	html, err := h.HTML()
	if err != nil {
		return err
	}
	if s.active() {
		s.displayHTML(html)
		s.sync()
	}
	return nil
}

// isNil reports whether v holds a nil pointer, map, slice, func or interface.
func isNil(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Interface:
		return rv.IsNil()
	}
	return v == nil
}
