package experiments

// The two methods of the success-rate study (Fig. "numerical_study"), the
// names under which StudyTrial records their runs (GD…, SOD…) and under
// which package sod/figures draws them.
const (
	MethodGD    = "GD"     // plain gradient descent: StudyTrial.GD, GDDist, GDSuccess
	MethodGDSOD = "GD+SOD" // gradient descent with SOD escapes: StudyTrial.SOD, SODDist, SODSuccess
)
