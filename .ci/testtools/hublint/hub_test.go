package hublint

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// values is the part of the Zero to JupyterHub chart's values that z2jh-values.yaml sets. The
// file is decoded with unknown fields refused, so a misspelt key fails here rather than being
// ignored by helm.
type values struct {
	Singleuser struct {
		Image struct {
			Name       string `yaml:"name"`
			Tag        string `yaml:"tag"`
			PullPolicy string `yaml:"pullPolicy"`
		} `yaml:"image"`
		Cmd        string `yaml:"cmd"`
		DefaultURL string `yaml:"defaultUrl"`
		UID        int    `yaml:"uid"`
		FsGid      int    `yaml:"fsGid"`
		CPU        struct {
			Guarantee float64 `yaml:"guarantee"`
			Limit     float64 `yaml:"limit"`
		} `yaml:"cpu"`
		Memory struct {
			Guarantee string `yaml:"guarantee"`
			Limit     string `yaml:"limit"`
		} `yaml:"memory"`
		ExtraEnv map[string]string `yaml:"extraEnv"`
		Storage  struct {
			Type          string `yaml:"type"`
			Capacity      string `yaml:"capacity"`
			HomeMountPath string `yaml:"homeMountPath"`
		} `yaml:"storage"`
		LifecycleHooks struct {
			PostStart struct {
				Exec struct {
					Command []string `yaml:"command"`
				} `yaml:"exec"`
			} `yaml:"postStart"`
		} `yaml:"lifecycleHooks"`
		ExtraContainerConfig struct {
			SecurityContext struct {
				RunAsNonRoot             bool  `yaml:"runAsNonRoot"`
				AllowPrivilegeEscalation *bool `yaml:"allowPrivilegeEscalation"`
				Capabilities             struct {
					Drop []string `yaml:"drop"`
				} `yaml:"capabilities"`
			} `yaml:"securityContext"`
		} `yaml:"extraContainerConfig"`
		StartTimeout  int `yaml:"startTimeout"`
		NetworkPolicy struct {
			Enabled bool `yaml:"enabled"`
		} `yaml:"networkPolicy"`
	} `yaml:"singleuser"`
	Cull struct {
		Enabled bool `yaml:"enabled"`
		Timeout int  `yaml:"timeout"`
		Every   int  `yaml:"every"`
		MaxAge  int  `yaml:"maxAge"`
		Users   bool `yaml:"users"`
	} `yaml:"cull"`
	Hub struct {
		Config map[string]map[string]any `yaml:"config"`
	} `yaml:"hub"`
	Proxy struct {
		HTTPS struct {
			Enabled     bool     `yaml:"enabled"`
			Type        string   `yaml:"type"`
			Hosts       []string `yaml:"hosts"`
			Letsencrypt struct {
				ContactEmail string `yaml:"contactEmail"`
			} `yaml:"letsencrypt"`
		} `yaml:"https"`
	} `yaml:"proxy"`
	PrePuller struct {
		Hook       struct{ Enabled bool } `yaml:"hook"`
		Continuous struct{ Enabled bool } `yaml:"continuous"`
	} `yaml:"prePuller"`
	Scheduling struct {
		UserScheduler struct{ Enabled bool } `yaml:"userScheduler"`
	} `yaml:"scheduling"`
}

// bytesOf parses a Kubernetes quantity such as 768M or 2G (decimal) or 2Gi (binary).
func bytesOf(t *testing.T, q string) float64 {
	t.Helper()
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}} {
		if num, ok := strings.CutSuffix(q, u.suffix); ok {
			var f float64
			if _, err := fmt.Sscan(num, &f); err != nil {
				t.Fatalf("quantity %q: %v", q, err)
			}
			return f * u.mult
		}
	}
	t.Fatalf("quantity %q: no unit", q)
	return 0
}

func TestZ2JHValues(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(hubDir, "z2jh-values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var v values
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("z2jh-values.yaml: %v", err)
	}
	su := v.Singleuser
	for _, c := range []struct {
		what string
		ok   bool
	}{
		{"singleuser.cmd is jupyterhub-singleuser (the image's default command is not for the hub)", su.Cmd == "jupyterhub-singleuser"},
		{"singleuser.uid/fsGid are the image's NB_UID 1000 / NB_GID 100", su.UID == 1000 && su.FsGid == 100},
		{"singleuser.image names the workbench image", strings.HasSuffix(su.Image.Name, "sod-workbench") && su.Image.Tag != ""},
		{"cpu guarantee ≤ limit", su.CPU.Guarantee > 0 && su.CPU.Guarantee <= su.CPU.Limit},
		{"memory guarantee ≤ limit", bytesOf(t, su.Memory.Guarantee) <= bytesOf(t, su.Memory.Limit)},
		{"storage is per student and does not cover the home (it holds the module)", su.Storage.Type == "dynamic" && strings.HasPrefix(su.Storage.HomeMountPath, "/home/jovyan/") && bytesOf(t, su.Storage.Capacity) >= 1<<30},
		{"the notebooks are copied to the volume on first start only", strings.Contains(strings.Join(su.LifecycleHooks.PostStart.Exec.Command, " "), "[ -e "+su.Storage.HomeMountPath+"/notebooks ] ||")},
		{"cells stay offline (GOPROXY=off) and one compile takes one core (-p=1)", su.ExtraEnv["GOPROXY"] == "off" && strings.Contains(su.ExtraEnv["GOFLAGS"], "-p=1")},
		{"a student's container runs as non-root without capabilities or privilege escalation (the grader's rule: nothing but the student's own rights)", su.ExtraContainerConfig.SecurityContext.RunAsNonRoot && su.ExtraContainerConfig.SecurityContext.AllowPrivilegeEscalation != nil && !*su.ExtraContainerConfig.SecurityContext.AllowPrivilegeEscalation && slices.Equal(su.ExtraContainerConfig.SecurityContext.Capabilities.Drop, []string{"ALL"})},
		{"idle servers culled", v.Cull.Enabled && v.Cull.Timeout > 0 && v.Cull.Every > 0},
		{"idle kernels culled by jupyter_server", strings.Contains(strings.Join(anyStrings(v.Hub.Config["KubeSpawner"]["args"]), " "), "--MappingKernelManager.cull_idle_timeout=")},
		{"HTTPS on", v.Proxy.HTTPS.Enabled && v.Proxy.HTTPS.Type != "" && len(v.Proxy.HTTPS.Hosts) > 0},
	} {
		if !c.ok {
			t.Errorf("z2jh-values.yaml: want %s", c.what)
		}
	}
}

func anyStrings(v any) []string {
	var out []string
	if l, ok := v.([]any); ok {
		for _, x := range l {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// TestConfigRefusesTestAuthenticator runs jupyterhub_config.py the way JupyterHub loads it
// (with get_config() giving a config object) and checks that SOD_HUB_AUTH=test is refused
// unless SOD_HUB_TEST=1, and that bad settings are refused with a message naming them.
func TestConfigRefusesTestAuthenticator(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	cfg, _ := filepath.Abs(filepath.Join(hubDir, "jupyterhub_config.py"))
	// A stand-in for traitlets' Config: attribute access makes sub-objects as needed.
	loader := `
import os, sys
class C(dict):
    def __getattr__(self, k):
        if k not in self: self[k] = C()
        return self[k]
    def __setattr__(self, k, v): self[k] = v
c = C()
try:
    exec(open(sys.argv[1]).read(), {"get_config": lambda: c, "__name__": "config"})
except SystemExit as e:
    print("REFUSED:", e); sys.exit(3)
print("authenticator:", c.JupyterHub.authenticator_class)
`
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{nil, "authenticator: pam"},
		{[]string{"SOD_HUB_AUTH=test", "SOD_HUB_TEST_PASSWORD=x"}, "REFUSED: jupyterhub_config.py: SOD_HUB_AUTH=test is the test-only authenticator"},
		{[]string{"SOD_HUB_AUTH=test", "SOD_HUB_TEST=1", "SOD_HUB_TEST_PASSWORD=x"}, "authenticator: dummy"},
		{[]string{"SOD_HUB_AUTH=test", "SOD_HUB_TEST=1"}, "REFUSED: jupyterhub_config.py: SOD_HUB_AUTH=test needs SOD_HUB_TEST_PASSWORD"},
		{[]string{"SOD_HUB_AUTH=github"}, "REFUSED: jupyterhub_config.py: SOD_HUB_AUTH='github'"},
		{[]string{"SOD_HUB_URL=0.0.0.0:8000"}, "REFUSED: jupyterhub_config.py: SOD_HUB_URL='0.0.0.0:8000'"},
		{[]string{"SOD_HUB_SSL_CERT=/x.pem"}, "REFUSED: jupyterhub_config.py: set both SOD_HUB_SSL_CERT and SOD_HUB_SSL_KEY"},
	} {
		cmd := exec.Command(py, "-c", loader, cfg)
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "SOD_HUB_STATE=" + t.TempDir()}, tc.env...)
		out, _ := cmd.CombinedOutput()
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("env %v: got %q, want %q", tc.env, out, tc.want)
		}
	}
}
