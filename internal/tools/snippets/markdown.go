package snippets

import (
	"fmt"
	"strings"
)

// Markdown returns the fenced code blocks of a Markdown file, and a problem for each fence
// without an info string (so that no Go goes unchecked by being left untagged) and for a
// fence never closed. Fences may be indented (inside a list item): their content loses as
// much indentation as the opening fence has.
func Markdown(name string, src []byte) (blocks []Block, problems []string) {
	lines := strings.Split(string(src), "\n")
	for i := 0; i < len(lines); i++ {
		indent, fence, info, ok := openingFence(lines[i])
		if !ok {
			continue
		}
		start := i + 1 // 1-based line of the opening fence
		var body []string
		closed := false
		for i++; i < len(lines); i++ {
			if isClosingFence(lines[i], fence) {
				closed = true
				break
			}
			body = append(body, dedent(lines[i], indent))
		}
		if !closed {
			problems = append(problems, fmt.Sprintf("%s:%d: code fence not closed", name, start))
			break
		}
		lang, _, _ := strings.Cut(info, " ")
		if lang == "" {
			problems = append(problems, fmt.Sprintf("%s:%d: code fence without an info string: "+
				"write ```go for Go (it is compiled) or name what it is (```sh, ```text)", name, start))
			continue
		}
		blocks = append(blocks, Block{File: name, Line: start + 1, Text: strings.Join(body, "\n"), Lang: lang})
	}
	return blocks, problems
}

// openingFence recognises a line of three or more backticks or tildes, with its info string.
func openingFence(line string) (indent int, fence, info string, ok bool) {
	trimmed := strings.TrimLeft(line, " ")
	indent = len(line) - len(trimmed)
	for _, c := range []string{"`", "~"} {
		n := len(trimmed) - len(strings.TrimLeft(trimmed, c))
		if n >= 3 {
			info = strings.TrimSpace(trimmed[n:])
			if c == "`" && strings.Contains(info, "`") {
				return 0, "", "", false // inline code, not a fence
			}
			return indent, trimmed[:n], info, true
		}
	}
	return 0, "", "", false
}

// isClosingFence: at least as many of the fence's characters, and nothing else.
func isClosingFence(line, fence string) bool {
	t := strings.TrimSpace(line)
	return len(t) >= len(fence) && strings.Trim(t, fence[:1]) == ""
}

// dedent removes up to n leading spaces.
func dedent(line string, n int) string {
	for n > 0 && strings.HasPrefix(line, " ") {
		line = line[1:]
		n--
	}
	return line
}
