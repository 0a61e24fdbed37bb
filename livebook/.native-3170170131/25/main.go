package main
import "fmt"
import "github.com/janpfeifer/must"

import "sodworkbench.org/workbench/sod"



func main() {
// Definition efs and Proposition escape_inequality at the real-world X̂ with δ₁, from the quantities of section 3.
max := sod.RealWorldCase()
cp, d := must.M1(max.Critical(sod.CriticalOptions{})), max.Delta()
ncm := -cp.LambdaN / (cp.SigmaR * cp.SigmaR * (1 + d)) // NCM = −λ_n/(σ_r²(1+δ))
aic := cp.Euu * cp.Euu / (2 * (1 + d) * (1 + d))       // AIC = ⟨E, u_nu_nᵀ⟩²/(2(1+δ)²)
c1, c2, c3 := 1+d, 2*cp.SigmaR*cp.Euu, 2*cp.SigmaR*cp.SigmaR*(1+d)+2*cp.LambdaN
fmt.Printf("NCM = %.4f, AIC = %.4f, EFS = %.4f\n", ncm, aic, ncm+aic)
fmt.Printf("Δ = C₂² − 4C₁C₃ = %.4f = 8σ_r²(1+δ)²(EFS − 1) = %.4f\n", c2*c2-4*c1*c3, 8*cp.SigmaR*cp.SigmaR*c1*c1*(ncm+aic-1))
s := must.M1(sod.SingleStep(max.P, max.XHat, sod.SingleStepOptions{Delta: d}))
fmt.Printf("sod.SingleStep: EFS = %.4f; %s\n", s.EFS, s.Verdict)
}
