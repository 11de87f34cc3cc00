package visibility

import (
	"errors"
	"fmt"

	"github.com/go-hbase/hbase/hberr"
)

// ValidLabel reports whether label is a valid visibility label: not empty, and only letters,
// digits, '_', '-', ':', '/' and '.' (HBase's VisibilityLabelsValidator).
func ValidLabel(label string) bool {
	if label == "" {
		return false
	}
	for i := 0; i < len(label); i++ {
		if !validLabelByte(label[i]) {
			return false
		}
	}
	return true
}

func validLabelByte(b byte) bool {
	switch {
	case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
		return true
	}
	switch b {
	case '_', '-', ':', '/', '.':
		return true
	}
	return false
}

// checkLabels refuses a call without labels, or with one that is not valid, before anything is
// sent: hberr.ErrBadRequest, and hberr.ErrInvalidLabel for each bad label.
func checkLabels(op string, labels []string) error {
	if len(labels) == 0 {
		return &hberr.OpError{Op: op, Table: LabelsTable, Err: fmt.Errorf("visibility: %w: no label", hberr.ErrBadRequest)}
	}
	var errs []error
	for _, l := range labels {
		if !ValidLabel(l) {
			errs = append(errs, &hberr.LabelError{Op: op, Label: l, Err: fmt.Errorf("%w: %w: a label is letters, digits, '_', '-', ':', '/' and '.'; nothing was sent",
				hberr.ErrInvalidLabel, hberr.ErrBadRequest)})
		}
	}
	return errors.Join(errs...)
}

// checkAuths is checkLabels, and a user.
func checkAuths(op, user string, labels []string) error {
	if user == "" {
		return &hberr.OpError{Op: op, Table: LabelsTable, Err: fmt.Errorf("visibility: %w: empty user", hberr.ErrBadRequest)}
	}
	return checkLabels(op, labels)
}
