package hrpc

// Names of tables, namespaces, families and snapshots are checked as HBase checks them
// (TableName.isLegalNamespaceName, isLegalTableQualifierName, ColumnFamilyDescriptorBuilder)
// when a descriptor is built or an admin call is made, so a bad name fails before anything is
// sent, with an error wrapping hberr.ErrBadRequest and hberr.ErrInvalidName. Tables are named
// "ns:qualifier", or "qualifier" in DefaultNamespace.

// DefaultNamespace is the namespace of a table named without one.
const DefaultNamespace = "default"

// SystemNamespace holds HBase's own tables (hbase:meta, hbase:namespace).
const SystemNamespace = "hbase"
