# Procedures and locks of the master, and snapshot's options (SKIP_FLUSH, TTL).
create '$T', 'f'
#java: create $T f
put '$T', 'r', 'f:q', 'v', 10
#java: put $T r f q v 10
#out: Id
#out: Name
#out: Last_Update
#out: Parameters
#out: CreateTableProcedure
#out: SUCCESS
list_procedures
list_locks
#out: regionsInTransition
#out: active master:
#out: live servers
#out: numberOfOnlineRegions=
#out: "hbase:meta,,1"
#out: storeCount=
#out: dead servers
status 'detailed'
#out: false
abort_procedure 987654321
#out: false
abort_procedure 987654321, false
#out: Took snapshot $S_skip of $T
snapshot '$T', '$S_skip', {SKIP_FLUSH => true}
#java: snapshot $S_skip $T
snapshot '$T', '$S_ttl', {TTL => 86400}
#java: snapshot $S_ttl $T
snapshot '$T', '$S_both', {SKIP_FLUSH => false, TTL => 0}
#java: snapshot $S_both $T
#out: 3 row(s) in
list_snapshots '$S_.*'
#snapshots: $S_
#snapshot-opts: $S_skip SKIPFLUSH 0
#snapshot-opts: $S_ttl FLUSH 86400
#snapshot-opts: $S_both FLUSH 0
#phase
# Procedures listed again (the snapshots' own), then the snapshots deleted.
#out: SnapshotProcedure
list_procedures
delete_snapshot '$S_skip'
#java: snapshot-delete $S_skip
delete_snapshot '$S_ttl'
#java: snapshot-delete $S_ttl
delete_snapshot '$S_both'
#java: snapshot-delete $S_both
#snapshots: $S_
