# Snapshots: take, list, clone, restore over later writes, delete (one, by name pattern, by
# table pattern).
create '$T', 'f'
#java: create $T f
put '$T', 'r', 'f:q', 'before', 10
#java: put $T r f q before 10
snapshot '$T', '$S_a'
#java: snapshot $S_a $T
snapshot '$T', '$S_b'
#java: snapshot $S_b $T
snapshot '$T', '$S_c'
#java: snapshot $S_c $T
#out: $S_a
#out: 3 row(s) in
list_snapshots '$S_.*'
#out: 3 row(s) in
list_table_snapshots '$T', '$S_.*'
put '$T', 'r', 'f:q', 'after', 20
#java: put $T r f q after 20
clone_snapshot '$S_a', '$U'
#java: clone $S_a $U
#state: $U
disable '$T'
#java: disable $T
restore_snapshot '$S_a'
#java: restore $S_a
enable '$T'
#java: enable $T
#state: $T
delete_snapshot '$S_a'
#java: snapshot-delete $S_a
#out: Deleted the 1 snapshot(s) above
delete_all_snapshot '$S_b'
#java: snapshot-delete $S_b
#out: 0 row(s) in
list_snapshots '$S_b'
#snapshots: $S_
#phase
# The snapshots of $T left, deleted by table and name pattern.
snapshot '$U', '$S_u'
#java: snapshot $S_u $U
#out: $S_c
delete_table_snapshots '$T', '$S_.*'
#java: snapshot-delete $S_c
#snapshots: $S_
