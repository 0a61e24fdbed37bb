package dockerlint

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/linter"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/buildkit/frontend/dockerfile/shell"
)

// finding is one problem reported by the Dockerfile lint: a BuildKit check rule or a project
// policy rule, the message, and the Dockerfile line (1-based, 0 when it concerns the whole file).
type finding struct {
	Rule string
	Msg  string
	Line int
}

func (f finding) String() string {
	if f.Line > 0 {
		return fmt.Sprintf("line %d: %s: %s", f.Line, f.Rule, f.Msg)
	}
	return fmt.Sprintf("%s: %s", f.Rule, f.Msg)
}

// parsed is a Dockerfile after BuildKit's parser and instruction parser.
type parsed struct {
	ast      *parser.Node
	escape   rune
	stages   []instructions.Stage
	metaArgs []instructions.ArgCommand
}

// lintDockerfile runs BuildKit's Dockerfile checks (the rules of `docker build --check`) on src.
//
// BuildKit runs its rules in two places. The parser and the instruction parser
// (FromAsCasing, StageNameCasing, MaintainerDeprecated, NoEmptyContinuation, ...) are called
// here as they are. The rest run while BuildKit converts the Dockerfile to a build graph
// (package dockerfile2llb, which needs a build client and much of BuildKit); buildtimeChecks
// re-implements those that need no base image metadata, with BuildKit's own rule definitions
// and its variable lexer. Experimental rules are on. An error means the Dockerfile does not
// parse.
func lintDockerfile(src []byte) ([]finding, *parsed, error) {
	var out []finding
	warn := func(rule, _, _, msg string, loc []parser.Range) {
		line := 0
		if len(loc) > 0 {
			line = loc[0].Start.Line
		}
		out = append(out, finding{Rule: rule, Msg: msg, Line: line})
	}
	res, err := parser.Parse(bytes.NewReader(src))
	if err != nil {
		return nil, nil, err
	}
	for _, w := range res.Warnings {
		line := 0
		if w.Location != nil {
			line = w.Location.Start.Line
		}
		rule := "ParserWarning"
		if w.URL == linter.RuleNoEmptyContinuation.URL {
			rule = linter.RuleNoEmptyContinuation.Name
		}
		out = append(out, finding{Rule: rule, Msg: w.Short, Line: line})
	}
	lint := linter.New(&linter.Config{ExperimentalAll: true, Warn: warn})
	stages, metaArgs, err := instructions.Parse(res.AST, lint)
	if err != nil {
		return nil, nil, err
	}
	if len(stages) == 0 {
		return nil, nil, fmt.Errorf("the Dockerfile has no FROM")
	}
	p := &parsed{ast: res.AST, escape: res.EscapeToken, stages: stages, metaArgs: metaArgs}
	buildtimeChecks(p, lint)
	return out, p, nil
}

// builtinArgs are the ARGs BuildKit defines without a declaration.
var builtinArgs = []string{
	"TARGETPLATFORM", "TARGETOS", "TARGETARCH", "TARGETVARIANT",
	"BUILDPLATFORM", "BUILDOS", "BUILDARCH", "BUILDVARIANT",
	"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "FTP_PROXY", "ftp_proxy",
	"NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy",
}

// secretKey is BuildKit's SecretsUsedInArgOrEnv pattern (dockerfile2llb.getSecretsRegex).
var (
	secretKey      = regexp.MustCompile(`(?i)(?:_|^)(?:apikey|auth|credential|credentials|key|password|pword|passwd|secret|token)(?:_|$)`)
	secretKeyAllow = regexp.MustCompile(`(?i)(?:_|^)(?:public)(?:_|$)`)
	// imageRef is a loose form of a Docker image reference (name[:tag][@digest]).
	imageRef = regexp.MustCompile(`^[a-z0-9]+([._-]{1,2}[a-z0-9]+|/[a-z0-9]+)*(:[0-9]+)?(/[a-z0-9]+([._-]{1,2}[a-z0-9]+)*)*(:[\w][\w.-]{0,127})?(@[a-z0-9]+:[0-9a-f]{32,})?$`)
)

// buildtimeChecks re-implements the rules BuildKit applies while converting a Dockerfile
// (dockerfile2llb): ConsistentInstructionCasing, ReservedStageName, DuplicateStageName,
// UndefinedArgInFrom, InvalidDefaultArgInFrom, SecretsUsedInArgOrEnv, LegacyKeyValueFormat,
// WorkdirRelativePath, JSONArgsRecommended, MultipleInstructionsDisallowed and UndefinedVar.
// Not covered: rules that need the base image's metadata or a build context
// (InvalidBaseImagePlatform, RedundantTargetPlatform, CopyIgnoredFile); UndefinedVar does not
// know the base image's environment beyond PATH.
func buildtimeChecks(p *parsed, lint *linter.Linter) {
	run := func(rule linter.LinterRuleI, loc []parser.Range, msg string) { lint.Run(rule, loc, msg) }

	// ConsistentInstructionCasing.
	var lower, upper int
	count := func(name string) {
		switch name {
		case strings.ToLower(name):
			lower++
		case strings.ToUpper(name):
			upper++
		}
	}
	for _, st := range p.stages {
		count(st.OrigCmd)
		for _, c := range st.Commands {
			count(c.Name())
		}
	}
	checkCase := func(name string, loc []parser.Range) {
		want := ""
		if lower > upper && strings.ToLower(name) != name {
			want = "lowercase"
		} else if lower <= upper && strings.ToUpper(name) != name {
			want = "uppercase"
		}
		if want != "" {
			run(&linter.RuleConsistentInstructionCasing, loc, linter.RuleConsistentInstructionCasing.Format(name, want))
		}
	}
	for _, st := range p.stages {
		checkCase(st.OrigCmd, st.Location)
		for _, c := range st.Commands {
			checkCase(c.Name(), c.Location())
		}
	}

	// Stage names.
	seen := map[string]bool{}
	for _, st := range p.stages {
		if st.Name == "" {
			continue
		}
		if st.Name == "context" || st.Name == "scratch" {
			run(&linter.RuleReservedStageName, st.Location, linter.RuleReservedStageName.Format(st.Name))
		}
		if seen[st.Name] {
			run(&linter.RuleDuplicateStageName, st.Location, linter.RuleDuplicateStageName.Format(st.Name))
		}
		seen[st.Name] = true
	}

	lex := shell.NewLex(p.escape)
	noSecret := func(instr, key string, loc []parser.Range) {
		if secretKey.MatchString(key) && !secretKeyAllow.MatchString(key) {
			run(&linter.RuleSecretsUsedInArgOrEnv, loc, linter.RuleSecretsUsedInArgOrEnv.Format(instr, key))
		}
	}

	// FROM: global ARGs.
	global := map[string]string{}
	for _, a := range builtinArgs {
		global[a] = ""
	}
	for _, ac := range p.metaArgs {
		for _, kv := range ac.Args {
			noSecret("ARG", kv.Key, ac.Location())
			v := ""
			if kv.Value != nil {
				v = *kv.Value
			}
			global[kv.Key] = v
		}
	}
	for _, st := range p.stages {
		r, err := lex.ProcessWordWithMatches(st.BaseName, envMap(global))
		if err != nil {
			continue
		}
		for name := range r.Unmatched {
			run(&linter.RuleUndefinedArgInFrom, st.Location, linter.RuleUndefinedArgInFrom.Format(name, ""))
		}
		if len(r.Unmatched) == 0 && len(r.Matched) > 0 && !seen[r.Result] && !imageRef.MatchString(r.Result) {
			run(&linter.RuleInvalidDefaultArgInFrom, st.Location, linter.RuleInvalidDefaultArgInFrom.Format(st.BaseName))
		}
	}

	// Each stage, instruction by instruction, as BuildKit's dispatch does.
	for _, st := range p.stages {
		env := map[string]string{"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
		buildArgs := map[string]bool{}
		for _, a := range builtinArgs {
			buildArgs[a] = true
		}
		workdirSet, shellSet := false, false
		once := map[string][]parser.Range{}
		for _, c := range st.Commands {
			loc := c.Location()
			report := func(unmatched map[string]struct{}) {
				for name := range unmatched {
					if !buildArgs[name] {
						run(&linter.RuleUndefinedVar, loc, linter.RuleUndefinedVar.Format(name, ""))
					}
				}
			}
			if _, isArg := c.(*instructions.ArgCommand); !isArg {
				if ex, ok := c.(instructions.SupportsSingleWordExpansion); ok {
					_ = ex.Expand(func(word string) (string, error) {
						w, unmatched, err := lex.ProcessWord(word, envMap(env))
						report(unmatched)
						return w, err
					})
				}
				if ex, ok := c.(instructions.SupportsSingleWordExpansionRaw); ok {
					raw := shell.NewLex(p.escape)
					raw.SkipProcessQuotes = true
					_ = ex.ExpandRaw(func(word string) (string, error) {
						w, unmatched, err := raw.ProcessWord(word, envMap(env))
						report(unmatched)
						return w, err
					})
				}
			}
			usedOnce := func(name string) {
				if prev, ok := once[name]; ok {
					run(&linter.RuleMultipleInstructionsDisallowed, prev, linter.RuleMultipleInstructionsDisallowed.Format(c.Name()))
				}
				once[name] = loc
			}
			jsonArgs := func(prepend bool) {
				if prepend && !shellSet {
					run(&linter.RuleJSONArgsRecommended, loc, linter.RuleJSONArgsRecommended.Format(c.Name()))
				}
			}
			switch c := c.(type) {
			case *instructions.ArgCommand:
				for _, kv := range c.Args {
					noSecret("ARG", kv.Key, loc)
					buildArgs[kv.Key] = true
					if kv.Value != nil {
						v, _, _ := lex.ProcessWord(*kv.Value, envMap(env))
						env[kv.Key] = v
					} else if gv, ok := global[kv.Key]; ok {
						env[kv.Key] = gv
					}
				}
			case *instructions.EnvCommand:
				for _, kv := range c.Env {
					if kv.NoDelim {
						run(&linter.RuleLegacyKeyValueFormat, loc, linter.RuleLegacyKeyValueFormat.Format(c.Name()))
					}
					noSecret("ENV", kv.Key, loc)
					env[kv.Key] = kv.Value
				}
			case *instructions.LabelCommand:
				for _, kv := range c.Labels {
					if kv.NoDelim {
						run(&linter.RuleLegacyKeyValueFormat, loc, linter.RuleLegacyKeyValueFormat.Format(c.Name()))
					}
				}
			case *instructions.WorkdirCommand:
				if !workdirSet && !path.IsAbs(c.Path) {
					run(&linter.RuleWorkdirRelativePath, loc, linter.RuleWorkdirRelativePath.Format(c.Path))
				}
				workdirSet = true
			case *instructions.ShellCommand:
				shellSet = true
			case *instructions.CmdCommand:
				usedOnce("CMD")
				jsonArgs(c.PrependShell)
			case *instructions.EntrypointCommand:
				usedOnce("ENTRYPOINT")
				jsonArgs(c.PrependShell)
			case *instructions.HealthCheckCommand:
				usedOnce("HEALTHCHECK")
			}
		}
	}
}

// envMap adapts a map to BuildKit's shell.EnvGetter.
type envMap map[string]string

func (e envMap) Get(key string) (string, bool) { v, ok := e[key]; return v, ok }

func (e envMap) Keys() []string {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// lineOf is the first line of a BuildKit location, or 0.
func lineOf(loc []parser.Range) int {
	if len(loc) == 0 {
		return 0
	}
	return loc[0].Start.Line
}
