# Reads: put's forms, then get, scan and count with their options. The Java side writes the
# same cells; the reads must print what the shell prints.
#java: create $T f;VERSIONS=3 g
#java: put $T r1 f q v1 100
#java: put $T r1 f q v2 200
#java: put $T r1 g age 41
#java: put $T r2 f q \x00\xFFbin
#java: put $T row3 f q 7
#java: put $T row4 f q\x20x spaced
#state: $T
create '$T', {NAME => 'f', VERSIONS => 3}, 'g'
put '$T', 'r1', 'f:q', 'v1', 100
put '$T', 'r1', 'f:q', 'v2', 200
put('$T', 'r1', 'g:age', 41)
put '$T', "r2", 'f:q', "\x00\xffbin"
put '$T', 'row3', 'f:q', '7', {ATTRIBUTES => {'origin' => 'runbook'}}
put '$T', 'row4', "f:q x", 'spaced'

#out:  f:q                             timestamp=200, value=v2
get '$T', 'r1'
#out:  f:q                             timestamp=100, value=v1
get '$T', 'r1', {COLUMN => 'f:q', VERSIONS => 3}
get '$T', 'r1', 'f:q', 'g'
get '$T', 'r1', ['f:q', 'g:age']
get '$T', 'r1', {TIMERANGE => [50, 150], COLUMNS => 'f'}
get '$T', 'r1', {TIMESTAMP => 200}
#out: value=\x00\xFFbin
get '$T', "r2", {FILTER => "ValueFilter(=, 'substring:bin')"}
get '$T', 'r1', {CONSISTENCY => 'TIMELINE', MAXLENGTH => 20}
get '$T', 'r1', {ATTRIBUTES => {'k' => 'v'}, CACHE_BLOCKS => false, RAW => false}
#out: 0 row(s) in
get '$T', 'nobody'

#out: ROW                              COLUMN+CELL
#out:  r2                              column=f:q, timestamp=
#out: 4 row(s) in
scan '$T'
#out: 2 row(s) in
scan '$T', {LIMIT => 2}
scan '$T', {STARTROW => 'r2', STOPROW => 'row4'}
scan '$T', {ROWPREFIXFILTER => 'row', COLUMNS => ['f:q']}
#out:  row4                            column=f:q x, timestamp=
scan '$T', {REVERSED => true, LIMIT => 1}
#out: METRIC
#out: RPC_CALLS
#out: ROWS_SCANNED
scan '$T', {METRICS => ['RPC_CALLS', 'ROWS_SCANNED'], LIMIT => 1}
#out: REGIONS_SCANNED
scan '$T', {ALL_METRICS => true}
#out: 4 row(s) in
scan '$T', {FILTER => "PrefixFilter('r') AND (ValueFilter(=, 'binary:v2') OR QualifierFilter(=, 'binaryprefix:q'))"}
scan '$T', {FILTER => "SingleColumnValueFilter('g', 'age', =, 'binary:41', true, true)"}
scan '$T', {FILTER => "KeyOnlyFilter() AND FirstKeyOnlyFilter()", CACHE => 1, BATCH => 1, MAXRESULTSIZE => 1048576}
scan '$T', {TIMERANGE => [0, 1000], VERSIONS => 5, CACHE_BLOCKS => false}
scan '$T', {FILTER => "ColumnPrefixFilter('q') AND ColumnRangeFilter('a', true, 'z', false) AND MultipleColumnPrefixFilter('q', 'a')"}
scan '$T', {FILTER => "ColumnCountGetFilter(1) AND PageFilter(10) AND ColumnPaginationFilter(1, 0)"}
scan '$T', {FILTER => "InclusiveStopFilter('r2') AND TimestampsFilter(100, 200) AND RowFilter(<=, 'binary:r2')"}
scan '$T', {FILTER => "SKIP ValueFilter(!=, 'binary:x') AND WHILE FamilyFilter(=, 'regexstring:^[fg]$')"}
scan '$T', {FILTER => "DependentColumnFilter('f', 'q', false) OR ColumnValueFilter('f', 'q', =, 'binary:7') OR SingleColumnValueExcludeFilter('f', 'q', =, 'binary:7')"}
#out: 4 row(s) in
count '$T'
#out: Current count: 2, row: r2
count '$T', INTERVAL => 2, CACHE => 1
#out: 2 row(s) in
count '$T', {FILTER => "PrefixFilter('row')"}
