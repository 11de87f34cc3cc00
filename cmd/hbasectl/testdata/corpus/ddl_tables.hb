# Table state and listings: disable, enable, exists, is_*, describe, list, regions, truncate,
# clone_table_schema and the *_all commands.
create '$T', 'f', SPLITS => ['k']
#java: create $T f splits=k
put '$T', 'a', 'f:q', 'v', 10
put '$T', 'x', 'f:q', 'v', 10
#java: put $T a f q v 10
#java: put $T x f q v 10
#out: Table $T does exist
exists '$T'
#out: Table $T_nope does not exist
exists '$T_nope'
disable '$T'
#out: true
is_disabled '$T'
#out: false
is_enabled '$T'
enable '$T'
#out: Table $T is ENABLED
desc '$T'
#out: $T
list '$T.*'
#out: Total number of splits = 2
#out: k
get_splits '$T'
#out: SERVER_NAME
list_regions '$T'
#out: REGION_NAME
locate_region '$T', 'z'
#out: SingleColumnValueFilter
show_filters
truncate_preserve '$T'
#java: truncate $T true
#state: $T
clone_table_schema '$T', '$U'
#java: create $U f splits=k
#state: $U
clone_table_schema '$T', '$V', false
#java: create $V f
#state: $V
truncate '$V'
#java: truncate $V false
create '$W', 'f'
#out: 1 table(s) done
disable_all '$W'
#out: 1 table(s) done
enable_all '$W'
disable '$W'
#out: Dropped table $W
drop_all '$W'
#out: false
exists '$W'
create '$W', 'f'
disable '$W'
#out: Dropped table $W
drop '$W'
#out: does not exist
exists '$W'
