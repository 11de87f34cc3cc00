# Deletes, counters and appends, each applied on the Java side by the Java Table's call.
create '$T', {NAME => 'f', VERSIONS => 5}, 'g'
#java: create $T f;VERSIONS=5 g
put '$T', 'a', 'f:q', 'a1', 10
put '$T', 'a', 'f:q', 'a2', 20
put '$T', 'a', 'f:q', 'a3', 30
put '$T', 'a', 'f:r', 'r1', 10
put '$T', 'a', 'g:x', 'x1', 10
put '$T', 'b', 'f:q', 'b1', 10
put '$T', 'b', 'g:x', 'x1', 10
put '$T', 'c', 'f:q', 'c1', 10
put '$T', 'pre1', 'f:q', 'p', 10
put '$T', 'pre2', 'f:q', 'p', 10
put '$T', "bin\x00", 'f:q', "\xde\xad", 10
#java: put $T a f q a1 10
#java: put $T a f q a2 20
#java: put $T a f q a3 30
#java: put $T a f r r1 10
#java: put $T a g x x1 10
#java: put $T b f q b1 10
#java: put $T b g x x1 10
#java: put $T c f q c1 10
#java: put $T pre1 f q p 10
#java: put $T pre2 f q p 10
#java: put $T bin\x00 f q \xDE\xAD 10
#out: delete: deleted the newest version of 'f:q' of row 'a' in $T
delete '$T', 'a', 'f:q'
#java: delete-latest $T a f q
delete '$T', 'a', 'f:q', 10
#java: delete-version $T a f q 10
deleteall '$T', 'a', 'f:r'
#java: delete-columns $T a f r
deleteall '$T', 'b', 'g'
#java: delete-fam $T b g
deleteall '$T', 'b', 'f:q', 10
#java: delete-columns $T b f q 10
deleteall '$T', 'c'
#java: delete-row $T c
deleteall '$T', "bin\x00"
#java: delete-row $T bin\x00
#out: deleteall: deleted 2 row(s) starting with 'pre' in $T
deleteall '$T', {ROWPREFIXFILTER => 'pre'}
#java: delete-prefix $T pre

#out: COUNTER VALUE = 1
incr '$T', 'n', 'g:hits'
#java: incr $T n g hits 1
#out: COUNTER VALUE = 11
incr '$T', 'n', 'g:hits', 10
#java: incr $T n g hits 10
incr '$T', 'n', 'g:hits', -4
#java: incr $T n g hits -4
#out: COUNTER VALUE = 7
get_counter '$T', 'n', 'g:hits'
#out: No counter found
get_counter '$T', 'n', 'g:none'
#out: CURRENT VALUE = ab
append '$T', 'n', 'g:s', 'ab'
#java: append $T n g s ab
#out: CURRENT VALUE = ab\x00c
append '$T', 'n', 'g:s', "\x00c"
#java: append $T n g s \x00c
#state: $T
