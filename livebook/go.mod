module sodworkbench.org/workbench/livebook

go 1.26

require (
	github.com/traefik/yaegi v0.16.1
	gonum.org/v1/plot v0.17.0
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/text v0.28.0 // indirect
	golang.org/x/tools v0.36.0 // indirect
)

require (
	github.com/go-echarts/go-echarts/v2 v2.6.7 // indirect
	github.com/go-logr/logr v1.4.2 // indirect
	github.com/gofrs/uuid v4.4.0+incompatible // indirect
	github.com/janpfeifer/gonb v0.11.4 // indirect
	github.com/janpfeifer/must v0.2.0
	github.com/pkg/errors v0.9.1 // indirect
	golang.org/x/exp v0.0.0-20250106191152-7588d65b2ba8 // indirect
	gonum.org/v1/gonum v0.17.0
	k8s.io/klog/v2 v2.130.1 // indirect
	sodworkbench.org/workbench v0.0.0-00010101000000-000000000000
)

replace sodworkbench.org/workbench => ..
