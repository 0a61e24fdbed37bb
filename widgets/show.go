package widgets

// Show displays a chart returned together with an error, as chart builders
// return them, or returns the error without displaying anything:
//
//	must.M(widgets.Show(c.Chart()))
func Show(c Chart, err error) error {
	if err != nil {
		return err
	}
	return Display(c)
}
