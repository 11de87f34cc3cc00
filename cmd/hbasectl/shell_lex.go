package main

import (
	"fmt"
	"strconv"
	"strings"
)

// The HBase shell is JRuby's IRB with HBase's commands added. Runbooks use a small part of
// Ruby: a command name, then arguments separated by commas (optionally in parentheses):
// quoted strings, numbers, true/false/nil, the shell's upper-case constants, arrays [...] and
// hashes {KEY => value} (the last argument's braces may be left out). This file and
// shell_parse.go read exactly that and refuse anything else with an error naming it.

type tokenKind int

const (
	tokEOF    tokenKind = iota
	tokIdent            // a bare word: command name, constant, true, false, nil
	tokString           // a quoted string; text holds its bytes after escapes
	tokInt              // an integer
	tokFloat            // a number with a fraction or exponent
	tokComma
	tokArrow    // =>
	tokLBracket // [
	tokRBracket // ]
	tokLBrace   // {
	tokRBrace   // }
	tokLParen   // (
	tokRParen   // )
	tokSemi     // ; or a newline outside brackets: the end of a command
	tokColon    // : before a symbol (:name), taken as a string like Ruby's symbols in hashes
	tokOther    // anything else: a Ruby operator the shell language here does not take
)

type token struct {
	kind tokenKind
	text string // the bytes of a string, the word of an identifier, the literal of a number
	pos  int    // byte offset in the input, for messages
	i    int64
	f    float64
}

// lexError is bad input found while reading tokens.
type lexError struct {
	pos int
	msg string
}

func (e *lexError) Error() string { return e.msg }

// lex splits src into tokens. Newlines end a command unless a bracket, brace or parenthesis
// is open or the line ends with a comma or =>: a hash may run over several lines.
func lex(src string) ([]token, error) {
	var toks []token
	depth := 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			if depth == 0 && !continues(toks) {
				toks = append(toks, token{kind: tokSemi, pos: i})
			}
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2 // an explicit line continuation
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '\'' || c == '"':
			s, n, err := lexString(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{kind: tokString, text: s, pos: i})
			i += n
		case c == '-' || c == '+' || isDigit(c):
			if (c == '-' || c == '+') && (i+1 >= len(src) || !isDigit(src[i+1])) {
				return nil, &lexError{i, fmt.Sprintf("unexpected %q at column %d: the shell language here takes no Ruby operators", string(c), i+1)}
			}
			t, n, err := lexNumber(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i += n
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			// Ruby method names may end in ? or !; keep them so the error names them whole.
			if j < len(src) && (src[j] == '?' || src[j] == '!') {
				j++
			}
			toks = append(toks, token{kind: tokIdent, text: src[i:j], pos: i})
			i = j
		case c == '=' && i+1 < len(src) && src[i+1] == '>':
			toks = append(toks, token{kind: tokArrow, text: "=>", pos: i})
			i += 2
		case c == ',':
			toks = append(toks, token{kind: tokComma, text: ",", pos: i})
			i++
		case c == ';':
			toks = append(toks, token{kind: tokSemi, text: ";", pos: i})
			i++
		case c == ':' && i+1 < len(src) && isIdentStart(src[i+1]):
			toks = append(toks, token{kind: tokColon, text: ":", pos: i})
			i++
		case strings.IndexByte("[{(", c) >= 0:
			depth++
			toks = append(toks, token{kind: map[byte]tokenKind{'[': tokLBracket, '{': tokLBrace, '(': tokLParen}[c], text: string(c), pos: i})
			i++
		case strings.IndexByte("]})", c) >= 0:
			if depth > 0 {
				depth--
			}
			toks = append(toks, token{kind: map[byte]tokenKind{']': tokRBracket, '}': tokRBrace, ')': tokRParen}[c], text: string(c), pos: i})
			i++
		default:
			j := i + 1
			for j < len(src) && strings.IndexByte("=<>!&|.*/%^~?", src[j]) >= 0 {
				j++
			}
			toks = append(toks, token{kind: tokOther, text: src[i:j], pos: i})
			i = j
		}
	}
	toks = append(toks, token{kind: tokEOF, pos: len(src)})
	return toks, nil
}

// continues says whether the tokens so far leave the command open at a line's end.
func continues(toks []token) bool {
	if len(toks) == 0 {
		return false
	}
	switch toks[len(toks)-1].kind {
	case tokComma, tokArrow:
		return true
	}
	return false
}

// openAtEnd says whether src ends inside a string, a bracket, or after a comma or =>: the
// interactive mode then reads another line before running the command.
func openAtEnd(src string) bool {
	toks, err := lex(src)
	if err != nil {
		var le *lexError
		if asLex(err, &le) && strings.HasPrefix(le.msg, "unterminated") {
			return true
		}
		return false
	}
	depth := 0
	for _, t := range toks {
		switch t.kind {
		case tokLBracket, tokLBrace, tokLParen:
			depth++
		case tokRBracket, tokRBrace, tokRParen:
			depth--
		}
	}
	return depth > 0 || continues(toks[:len(toks)-1])
}

func asLex(err error, target **lexError) bool {
	le, ok := err.(*lexError)
	if ok {
		*target = le
	}
	return ok
}

func isDigit(c byte) bool      { return '0' <= c && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isIdentPart(c byte) bool  { return isIdentStart(c) || isDigit(c) }

// lexNumber reads an integer (decimal, 0x hex, with _ separators as Ruby allows) or a float.
func lexNumber(src string, start int) (token, int, error) {
	j := start
	if src[j] == '-' || src[j] == '+' {
		j++
	}
	isFloat := false
	if strings.HasPrefix(src[j:], "0x") || strings.HasPrefix(src[j:], "0X") {
		j += 2
		for j < len(src) && (isHex(src[j]) || src[j] == '_') {
			j++
		}
	} else {
		for j < len(src) && (isDigit(src[j]) || src[j] == '_') {
			j++
		}
		if j+1 < len(src) && src[j] == '.' && isDigit(src[j+1]) {
			isFloat = true
			j++
			for j < len(src) && (isDigit(src[j]) || src[j] == '_') {
				j++
			}
		}
		if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
			k := j + 1
			if k < len(src) && (src[k] == '-' || src[k] == '+') {
				k++
			}
			if k < len(src) && isDigit(src[k]) {
				isFloat = true
				j = k
				for j < len(src) && isDigit(src[j]) {
					j++
				}
			}
		}
	}
	lit := src[start:j]
	if j < len(src) && (isIdentPart(src[j]) || src[j] == '.') {
		k := j
		for k < len(src) && (isIdentPart(src[k]) || src[k] == '.') {
			k++
		}
		return token{}, 0, &lexError{start, fmt.Sprintf("%q at column %d is a Ruby expression the shell language here does not take; write the number itself", src[start:k], start+1)}
	}
	clean := strings.ReplaceAll(lit, "_", "")
	if isFloat {
		f, err := strconv.ParseFloat(clean, 64)
		if err != nil {
			return token{}, 0, &lexError{start, fmt.Sprintf("bad number %q at column %d", lit, start+1)}
		}
		return token{kind: tokFloat, text: lit, pos: start, f: f}, j - start, nil
	}
	n, err := strconv.ParseInt(clean, 0, 64)
	if err != nil {
		return token{}, 0, &lexError{start, fmt.Sprintf("bad number %q at column %d: want an integer that fits in 64 bits", lit, start+1)}
	}
	return token{kind: tokInt, text: lit, pos: start, i: n}, j - start, nil
}

func isHex(c byte) bool { _, ok := unhex(c); return ok }

// lexString reads a quoted string at src[start] as Ruby does. Single quotes take only \\ and
// \' as escapes (so 'a\x00' is the seven characters a\x00, as in the HBase shell). Double
// quotes take \xNN (one or two hex digits), \NNN (octal), \n \t \r \0 \e \s \a \b \f \v, \"
// and \\ and \uNNNN; "#{...}" (Ruby interpolation) is refused.
func lexString(src string, start int) (string, int, error) {
	q := src[start]
	var sb strings.Builder
	i := start + 1
	for i < len(src) {
		c := src[i]
		switch {
		case c == q:
			return sb.String(), i + 1 - start, nil
		case c == '\\' && q == '\'':
			if i+1 < len(src) && (src[i+1] == '\\' || src[i+1] == '\'') {
				sb.WriteByte(src[i+1])
				i += 2
			} else {
				sb.WriteByte('\\')
				i++
			}
		case c == '\\':
			n, err := doubleQuoteEscape(src, i, &sb)
			if err != nil {
				return "", 0, err
			}
			i += n
		case c == '#' && q == '"' && i+1 < len(src) && (src[i+1] == '{' || src[i+1] == '@' || src[i+1] == '$'):
			return "", 0, &lexError{i, fmt.Sprintf("Ruby interpolation %q at column %d is not taken: write the text itself, or use single quotes", src[i:min(i+2, len(src))], i+1)}
		default:
			sb.WriteByte(c)
			i++
		}
	}
	return "", 0, &lexError{start, fmt.Sprintf("unterminated string: the %c at column %d has no closing %c", q, start+1, q)}
}

// doubleQuoteEscape writes the byte(s) of the escape at src[i] (a backslash) and returns how
// many bytes of src it took.
func doubleQuoteEscape(src string, i int, sb *strings.Builder) (int, error) {
	if i+1 >= len(src) {
		return 0, &lexError{i, fmt.Sprintf("unterminated string: a backslash ends the input at column %d", i+1)}
	}
	c := src[i+1]
	simple := map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', 'e': 0x1b, 's': ' ', 'a': 7, 'b': 8, 'f': '\f', 'v': '\v', '"': '"', '\\': '\\', '\'': '\'', '#': '#'}
	if b, ok := simple[c]; ok {
		sb.WriteByte(b)
		return 2, nil
	}
	switch {
	case c == 'x':
		j := i + 2
		var v byte
		for j < len(src) && j < i+4 && isHex(src[j]) {
			d, _ := unhex(src[j])
			v = v<<4 | d
			j++
		}
		if j == i+2 {
			return 0, &lexError{i, fmt.Sprintf("bad escape %q at column %d: \\x needs one or two hex digits", src[i:min(i+4, len(src))], i+1)}
		}
		sb.WriteByte(v)
		return j - i, nil
	case '0' <= c && c <= '7':
		j := i + 1
		v := 0
		for j < len(src) && j < i+4 && '0' <= src[j] && src[j] <= '7' {
			v = v*8 + int(src[j]-'0')
			j++
		}
		sb.WriteByte(byte(v))
		return j - i, nil
	case c == 'u':
		if i+6 <= len(src) {
			if r, err := strconv.ParseUint(src[i+2:i+6], 16, 32); err == nil {
				sb.WriteRune(rune(r))
				return 6, nil
			}
		}
		return 0, &lexError{i, fmt.Sprintf("bad escape at column %d: \\u needs four hex digits", i+1)}
	case c == '\n':
		return 2, nil
	}
	return 0, &lexError{i, fmt.Sprintf("unknown escape \\%c at column %d: want \\xNN, \\NNN (octal), \\n, \\t, \\\\ or \\\"", c, i+1)}
}
