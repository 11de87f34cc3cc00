package snippets

import "fmt"

// Block is one code block of a Markdown file or of a package's documentation.
type Block struct {
	File string // slash-separated path from the repository's root
	Line int    // line of the block's first line of code in File
	Text string // the code, without the fence or the comment's indentation
	// Lang is what the block is written in: a Markdown fence's info string (its first word),
	// "go" for a doc comment's code block, "text" for one a snippets:text directive marks.
	Lang string
}

// IsGo reports whether the block is checked.
func (b Block) IsGo() bool { return b.Lang == "go" }

func (b Block) String() string {
	return fmt.Sprintf("%s:%d (%s)", b.File, b.Line, b.Lang)
}
