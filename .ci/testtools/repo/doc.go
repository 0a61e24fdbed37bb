// Package repo holds the tests of the repository as a whole, which belong to no one package:
//
//   - TestReadmeExample: the README's Go example compiles against the working tree and prints
//     the output the README shows;
//   - TestMarkdownLinks, TestMarkdownIsAGuide: every link of every Markdown file and notebook
//     resolves (files, folders and #anchors), and the guides read as guides;
//   - TestNoReferencesOutsideRepository: no file points to a file the repository does not carry;
//   - TestNoBinariesTracked: no built binary or oversized file is tracked;
//   - TestEnvironmentDocumented: every SOD_* environment variable the code reads is in the one
//     table of them, scripts/environment.md, and every row there is read somewhere.
//
// It has no Go API. Its tests read the repository from repoRoot, three folders up
// (.ci/testtools/repo), so they check the working tree, tracked or not yet committed:
//
//	cd .ci/testtools && go test ./repo
package repo
