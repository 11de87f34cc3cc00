package fakehbase

import (
	"bytes"
	"maps"
	"regexp"
	"slices"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/go-hbase/hbase/internal/pb"
)

// masterMethods is the MasterService of the first region server. Table and namespace changes
// are procedures, as in HBase: the call returns a procedure id and the client polls
// getProcedureResult, which gives the outcome (the fake runs each procedure at once).
var masterMethods = map[string]handler{
	"IsMasterRunning":   masterRunning,
	"ExecMasterService": serverExec("master"),
	"CreateTable": procedureCall[pb.CreateTableResponse](OpCreateTable,
		func(r *pb.CreateTableRequest) string { return tableNameOf(r.GetTableSchema().GetTableName()) }, createTable),
	"DeleteTable":              tableProcedure[pb.DeleteTableResponse](OpDeleteTable, deleteTable),
	"EnableTable":              tableProcedure[pb.EnableTableResponse](OpEnableTable, enableTable),
	"DisableTable":             tableProcedure[pb.DisableTableResponse](OpDisableTable, disableTable),
	"truncateTable":            tableProcedure[pb.TruncateTableResponse](OpTruncateTable, truncateTable),
	"ModifyTable":              tableProcedure[pb.ModifyTableResponse](OpModifyTable, modifyTable),
	"AddColumn":                tableProcedure[pb.AddColumnResponse](OpAddColumn, addColumn),
	"ModifyColumn":             tableProcedure[pb.ModifyColumnResponse](OpModifyColumn, modifyColumn),
	"DeleteColumn":             tableProcedure[pb.DeleteColumnResponse](OpDeleteColumn, deleteColumn),
	"GetTableState":            masterTableState,
	"GetTableDescriptors":      masterTableDescriptors,
	"GetTableNames":            masterTableNames,
	"CreateNamespace":          procedureCall[pb.CreateNamespaceResponse](OpCreateNamespace, nil, createNamespace),
	"DeleteNamespace":          procedureCall[pb.DeleteNamespaceResponse](OpDeleteNamespace, nil, deleteNamespace),
	"ModifyNamespace":          procedureCall[pb.ModifyNamespaceResponse](OpModifyNamespace, nil, modifyNamespace),
	"GetNamespaceDescriptor":   masterNamespace,
	"ListNamespaceDescriptors": masterNamespaces,
	"getProcedureResult":       masterProcedureResult,
}

// procedure is a finished master procedure: err is its failure, nil when it succeeded.
type procedure struct {
	err  *javaError
	when int64
}

// nonced is a master request's nonce: a request sent again gets the procedure of the first.
type nonced interface {
	GetNonceGroup() uint64
	GetNonce() uint64
}

// runProcedure runs fn as a procedure and returns its id. Callers hold s.mu.
func (s *Server) runProcedure(req nonced, fn func() error) uint64 {
	key := [2]uint64{req.GetNonceGroup(), req.GetNonce()}
	if key[1] != 0 {
		if id, ok := s.procNonces[key]; ok {
			return id
		}
	}
	s.lastProc++
	id := s.lastProc
	p := &procedure{when: s.now()}
	if err := fn(); err != nil {
		p.err = asJava(err)
	}
	s.procs[id] = p
	if key[1] != 0 {
		s.procNonces[key] = id
	}
	return id
}

// masterCall decodes a master request, applies the faults of op (on table, when it names
// one), and serves it under the lock.
func masterCall[Req proto.Message](c *call, req Req, op Op, table func(Req) string,
	serve func(s *Server, req Req) (proto.Message, error)) (proto.Message, error) {
	if err := c.unmarshal(req); err != nil {
		return nil, err
	}
	name := ""
	if table != nil {
		name = table(req)
	}
	if err := c.inject(op, name, nil, nil); err != nil {
		return nil, err
	}
	s := c.rs.s
	s.mu.Lock()
	defer s.mu.Unlock()
	return serve(s, req)
}

// procedureRequest is a master request served as a procedure: decoded into a new message
// each call, carrying the nonce a resend is recognised by.
type procedureRequest[R any] interface {
	*R
	proto.Message
	nonced
}

// procedureResponse is the answer to a master call run as a procedure: a message with the
// procedure's id in its field proc_id.
type procedureResponse[S any] interface {
	*S
	proto.Message
}

// procedureCall serves a master call as a procedure, as HBase runs table and namespace
// changes. start, under the lock, either refuses the request at once (a bad name) or returns
// the procedure, whose outcome the client polls with getProcedureResult; the call itself
// answers with an S holding the procedure's id. table names the call's table for faults
// (nil: none).
func procedureCall[S any, PS procedureResponse[S], R any, PR procedureRequest[R]](op Op, table func(PR) string,
	start func(s *Server, req PR) (procedure func() error, err error)) handler {
	return func(c *call) (proto.Message, error) {
		return masterCall(c, PR(new(R)), op, table, func(s *Server, req PR) (proto.Message, error) {
			proc, err := start(s, req)
			if err != nil {
				return nil, err
			}
			resp := PS(new(S)).ProtoReflect()
			resp.Set(resp.Descriptor().Fields().ByName("proc_id"), protoreflect.ValueOfUint64(s.runProcedure(req, proc)))
			return resp.Interface(), nil
		})
	}
}

// tableRequest is a master request about one existing table.
type tableRequest[R any] interface {
	procedureRequest[R]
	GetTableName() *pb.TableName
}

// tableProcedure serves a master call that changes one existing table as a procedure: change
// runs on the table the request names, whose absence is the procedure's
// TableNotFoundException.
func tableProcedure[S any, PS procedureResponse[S], R any, PR tableRequest[R]](op Op,
	change func(s *Server, t *table, req PR) error) handler {
	return procedureCall[S, PS](op, func(r PR) string { return tableNameOf(r.GetTableName()) },
		func(s *Server, req PR) (func() error, error) {
			return func() error {
				t, err := s.tableFor(req.GetTableName())
				if err != nil {
					return err
				}
				return change(s, t, req)
			}, nil
		})
}

// tableNameOf is "ns:q", or "q" in the default namespace.
func tableNameOf(tn *pb.TableName) string {
	ns := string(tn.GetNamespace())
	if ns == "" || ns == defaultNS {
		return string(tn.GetQualifier())
	}
	return ns + ":" + string(tn.GetQualifier())
}

func masterRunning(c *call) (proto.Message, error) {
	return masterCall(c, &pb.IsMasterRunningRequest{}, "IsMasterRunning", nil,
		func(*Server, *pb.IsMasterRunningRequest) (proto.Message, error) {
			return &pb.IsMasterRunningResponse{IsMasterRunning: proto.Bool(true)}, nil
		})
}

// createTable refuses a bad schema or split keys at once, as HBase does before it starts the
// procedure.
func createTable(s *Server, req *pb.CreateTableRequest) (func() error, error) {
	t, err := s.checkNewTable(req.GetTableSchema())
	if err != nil {
		return nil, err
	}
	keys, err := sortedSplitKeys(req.GetSplitKeys())
	if err != nil {
		return nil, err
	}
	return func() error { return s.createTable(t, keys) }, nil
}

// sortedSplitKeys sorts split keys, refusing an empty one and one given twice.
func sortedSplitKeys(splitKeys [][]byte) ([][]byte, error) {
	keys := slices.Clone(splitKeys)
	slices.SortFunc(keys, bytes.Compare)
	for i, k := range keys {
		if len(k) == 0 {
			return nil, badRequest("Empty split key must not be passed in the split keys.")
		}
		if i > 0 && bytes.Equal(k, keys[i-1]) {
			return nil, badRequest("Found duplicate split keys")
		}
	}
	return keys, nil
}

// checkNewTable builds a table from a schema, refusing what HBase refuses before it starts a
// procedure (a missing namespace, a table without families, bad family settings).
func (s *Server) checkNewTable(schema *pb.TableSchema) (*table, error) {
	tn := schema.GetTableName()
	ns, q := string(tn.GetNamespace()), string(tn.GetQualifier())
	if ns == "" {
		ns = defaultNS
	}
	if q == "" {
		return nil, jerr(IllegalArgument, "Table qualifier must not be empty")
	}
	if s.namespaces[ns] == nil {
		return nil, jerr(NamespaceNotFound, "%s", ns)
	}
	if len(schema.GetColumnFamilies()) == 0 {
		return nil, badRequest("Table should have at least one column family. Set hbase.table.sanity.checks to false at conf or table descriptor if you want to bypass sanity checks")
	}
	t := &table{ns: ns, qual: q, name: tableNameOf(&pb.TableName{Namespace: []byte(ns), Qualifier: []byte(q)}),
		attrs: maps.Clone(tableDefaults), config: map[string]string{}, enabled: true, data: newData(bytes.Compare)}
	for _, p := range schema.GetAttributes() {
		t.attrs[string(p.GetFirst())] = string(p.GetSecond())
	}
	for _, p := range schema.GetConfiguration() {
		t.config[p.GetName()] = p.GetValue()
	}
	fams, err := familiesOf(schema.GetColumnFamilies())
	if err != nil {
		return nil, err
	}
	t.setFamilies(fams)
	return t, nil
}

func familiesOf(schemas []*pb.ColumnFamilySchema) ([]*family, error) {
	var fams []*family
	seen := map[string]bool{}
	for _, fs := range schemas {
		f, err := familyFromSchema(fs)
		if err != nil {
			return nil, err
		}
		if seen[f.name] {
			return nil, badRequest("Column family %s is given twice", f.name)
		}
		seen[f.name] = true
		fams = append(fams, f)
	}
	return fams, nil
}

// createTable adds table t, split at keys. Callers hold s.mu.
func (s *Server) createTable(t *table, keys [][]byte) error {
	if s.tables[t.name] != nil {
		return jerr(TableExists, "%s", t.name)
	}
	s.newRegions(t, keys)
	s.tables[t.name] = t
	s.registerRegions(t)
	s.metaWrite(t)
	return nil
}

// tableFor returns the table a request names, or TableNotFoundException.
func (s *Server) tableFor(tn *pb.TableName) (*table, error) {
	name := tableNameOf(tn)
	t := s.tables[name]
	if t == nil {
		return nil, jerr(TableNotFound, "%s", name)
	}
	return t, nil
}

func deleteTable(s *Server, t *table, req *pb.DeleteTableRequest) error {
	if t == s.meta {
		return jerr(Constraint, "Cannot delete hbase:meta")
	}
	if t.enabled {
		return jerr(TableNotDisabled, "%s", t.name)
	}
	s.metaRemove(t)
	s.unregisterRegions(t)
	delete(s.tables, t.name)
	return nil
}

func enableTable(s *Server, t *table, req *pb.EnableTableRequest) error {
	if t.enabled {
		return jerr(TableNotDisabled, "%s", t.name)
	}
	t.enabled = true
	s.metaWrite(t)
	return nil
}

func disableTable(s *Server, t *table, req *pb.DisableTableRequest) error {
	if t == s.meta {
		return jerr(Constraint, "Cannot disable hbase:meta")
	}
	if !t.enabled {
		return jerr(TableNotEnabled, "%s", t.name)
	}
	s.flushTable(t) // closing a region flushes it
	t.enabled = false
	s.metaWrite(t)
	return nil
}

func truncateTable(s *Server, t *table, req *pb.TruncateTableRequest) error {
	if t.enabled {
		return jerr(TableNotDisabled, "%s", t.name)
	}
	var keys [][]byte
	if req.GetPreserveSplits() {
		for _, r := range t.regions[1:] {
			keys = append(keys, r.start)
		}
	}
	s.unregisterRegions(t)
	t.data = newData(bytes.Compare)
	s.newRegions(t, keys)
	t.enabled = true
	s.registerRegions(t)
	s.metaWrite(t)
	return nil
}

func modifyTable(s *Server, t *table, req *pb.ModifyTableRequest) error {
	nt, err := s.checkNewTable(req.GetTableSchema())
	if err != nil {
		return err
	}
	if nt.name != t.name {
		return badRequest("ModifyTable of %s with the schema of %s", t.name, nt.name)
	}
	var fams []*family
	for _, name := range nt.famNames {
		fams = append(fams, nt.fams[name])
	}
	s.setFamilies(t, fams)
	t.attrs, t.config = nt.attrs, nt.config
	return nil
}

// flushTable flushes every region of t, as closing them does. Callers hold s.mu.
func (s *Server) flushTable(t *table) {
	if !t.enabled {
		return // closed already: flushed when it was disabled
	}
	for _, r := range t.regions {
		s.flushRegion(r)
	}
}

// setFamilies replaces the families of t; the data of those dropped goes with them. The
// regions reopen with the new schema, so they flush first, with the old one.
func (s *Server) setFamilies(t *table, fams []*family) {
	s.flushTable(t)
	keep := map[string]bool{}
	for _, f := range fams {
		keep[f.name] = true
	}
	for _, name := range t.famNames {
		if !keep[name] {
			t.data.dropFamily(name)
		}
	}
	t.setFamilies(fams)
}

func (t *table) familyList() []*family {
	var out []*family
	for _, name := range t.famNames {
		out = append(out, t.fams[name])
	}
	return out
}

func addColumn(s *Server, t *table, req *pb.AddColumnRequest) error {
	f, err := familyFromSchema(req.GetColumnFamilies())
	if err != nil {
		return err
	}
	if t.fams[f.name] != nil {
		return jerr(InvalidFamilyOperation, "Column family '%s' in table '%s' already exists so cannot be added", f.name, t.name)
	}
	s.setFamilies(t, append(t.familyList(), f))
	return nil
}

func modifyColumn(s *Server, t *table, req *pb.ModifyColumnRequest) error {
	f, err := familyFromSchema(req.GetColumnFamilies())
	if err != nil {
		return err
	}
	if t.fams[f.name] == nil {
		return jerr(InvalidFamilyOperation, "Column family '%s' does not exist, so it cannot be modified", f.name)
	}
	fams := t.familyList()
	for i := range fams {
		if fams[i].name == f.name {
			fams[i] = f
		}
	}
	s.setFamilies(t, fams)
	return nil
}

func deleteColumn(s *Server, t *table, req *pb.DeleteColumnRequest) error {
	name := string(req.GetColumnName())
	if t.fams[name] == nil {
		return jerr(InvalidFamilyOperation, "Family '%s' does not exist, so it cannot be deleted", name)
	}
	if len(t.famNames) == 1 {
		return jerr(InvalidFamilyOperation, "Family '%s' is the only column family in the table, so it cannot be deleted", name)
	}
	s.setFamilies(t, slices.DeleteFunc(t.familyList(), func(f *family) bool { return f.name == name }))
	return nil
}

func masterTableState(c *call) (proto.Message, error) {
	return masterCall(c, &pb.GetTableStateRequest{}, "GetTableState",
		func(r *pb.GetTableStateRequest) string { return tableNameOf(r.GetTableName()) },
		func(s *Server, req *pb.GetTableStateRequest) (proto.Message, error) {
			t, err := s.tableFor(req.GetTableName())
			if err != nil {
				return nil, err
			}
			st := pb.TableState_ENABLED
			if !t.enabled {
				st = pb.TableState_DISABLED
			}
			return &pb.GetTableStateResponse{TableState: &pb.TableState{State: st.Enum()}}, nil
		})
}

// matchingTables lists the tables of a listing request, sorted by name: of a namespace
// (which must exist), matching a regular expression (the whole name, or "default:name"),
// system tables only when asked.
func (s *Server) matchingTables(ns, expr string, sys bool) ([]*table, error) {
	if ns != "" && s.namespaces[ns] == nil {
		return nil, jerr(NamespaceNotFound, "%s", ns)
	}
	var re *regexp.Regexp
	if expr != "" {
		var err error
		if re, err = regexp.Compile("^(?:" + expr + ")$"); err != nil {
			return nil, unsupported("table regular expression %q (the fake has Go's RE2 syntax: %v)", expr, err)
		}
	}
	var out []*table
	for _, name := range slices.Sorted(maps.Keys(s.tables)) {
		t := s.tables[name]
		switch {
		case ns != "" && t.ns != ns:
			continue
		case ns == "" && !sys && t.ns == systemNS:
			continue
		case re != nil && !re.MatchString(t.name) && !(t.ns == defaultNS && re.MatchString(defaultNS+":"+t.name)):
			continue
		}
		out = append(out, t)
	}
	return out, nil
}

func masterTableDescriptors(c *call) (proto.Message, error) {
	return masterCall(c, &pb.GetTableDescriptorsRequest{}, "GetTableDescriptors",
		func(r *pb.GetTableDescriptorsRequest) string {
			if len(r.GetTableNames()) == 1 {
				return tableNameOf(r.GetTableNames()[0])
			}
			return ""
		},
		func(s *Server, req *pb.GetTableDescriptorsRequest) (proto.Message, error) {
			resp := &pb.GetTableDescriptorsResponse{}
			if len(req.GetTableNames()) > 0 {
				for _, tn := range req.GetTableNames() {
					if t := s.tables[tableNameOf(tn)]; t != nil {
						resp.TableSchema = append(resp.TableSchema, t.schema())
					}
				}
				return resp, nil
			}
			tables, err := s.matchingTables(req.GetNamespace(), req.GetRegex(), req.GetIncludeSysTables())
			if err != nil {
				return nil, err
			}
			for _, t := range tables {
				resp.TableSchema = append(resp.TableSchema, t.schema())
			}
			return resp, nil
		})
}

func masterTableNames(c *call) (proto.Message, error) {
	return masterCall(c, &pb.GetTableNamesRequest{}, "GetTableNames", nil,
		func(s *Server, req *pb.GetTableNamesRequest) (proto.Message, error) {
			tables, err := s.matchingTables(req.GetNamespace(), req.GetRegex(), req.GetIncludeSysTables())
			if err != nil {
				return nil, err
			}
			resp := &pb.GetTableNamesResponse{}
			for _, t := range tables {
				resp.TableNames = append(resp.TableNames, t.tableName())
			}
			return resp, nil
		})
}

func masterProcedureResult(c *call) (proto.Message, error) {
	return masterCall(c, &pb.GetProcedureResultRequest{}, "getProcedureResult", nil,
		func(s *Server, req *pb.GetProcedureResultRequest) (proto.Message, error) {
			p := s.procs[req.GetProcId()]
			if p == nil {
				return &pb.GetProcedureResultResponse{State: pb.GetProcedureResultResponse_NOT_FOUND.Enum()}, nil
			}
			resp := &pb.GetProcedureResultResponse{State: pb.GetProcedureResultResponse_FINISHED.Enum(),
				SubmittedTime: proto.Uint64(uint64(p.when)), LastUpdate: proto.Uint64(uint64(p.when))}
			if p.err != nil {
				resp.Exception = &pb.ForeignExceptionMessage{Source: proto.String("fakehbase"),
					GenericException: &pb.GenericExceptionMessage{ClassName: proto.String(string(p.err.class)), Message: proto.String(p.err.msg)}}
			}
			return resp, nil
		})
}
