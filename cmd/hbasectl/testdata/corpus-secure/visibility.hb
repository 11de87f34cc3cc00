# Visibility labels and cell security: labels and the authorizations of users and groups,
# compared with what Java's VisibilityClient lists after the shell's calls; put's VISIBILITY,
# TTL and ACL, the VISIBILITY of delete, deleteall, incr and append, and the AUTHORIZATIONS of
# get and scan, checked by effect with the guest reading.
create '$T', 'f'
#java: create $T f
create '$U', 'f', METADATA => {'hbase.security.access.early_out' => 'false'}
#java: create $U f attr=hbase.security.access.early_out:false
add_labels ['$Lsecret', '$Lpublic']
#java: add-labels $Lsecret $Lpublic
add_labels '$Lintern'
#java: add-labels $Lintern
#out: $Lintern
list_labels '$L.*'
set_auths '$P', ['$Lsecret', '$Lpublic']
#java: set-auths $P $Lsecret $Lpublic
set_auths '@$G', '$Lintern'
#java: set-auths @$G $Lintern
clear_auths '$P', '$Lpublic'
#java: clear-auths $P $Lpublic
#out: $Lsecret
get_auths '$P'
#out: $Lintern
get_auths '@$G'
#labels: $L.*
#auths: $P
#auths: @$G
set_auths 'guest', '$Lsecret'
grant 'guest', 'R', '$T'
put '$T', 'r1', 'f:open', 'a'
put '$T', 'r1', 'f:sec', 'b', {VISIBILITY => '$Lsecret'}
put '$T', 'r1', 'f:both', 'c', {VISIBILITY => '$Lsecret & $Lpublic'}
put '$T', 'r1', 'f:either', 'd', {VISIBILITY => '($Lsecret | $Lpublic) & !$Lintern'}
put '$T', 'r2', 'f:short', 'gone', {TTL => 1}
put '$T', 'r2', 'f:long', 'kept', {TTL => 3600000}
incr '$T', 'r3', 'f:n', 5, {VISIBILITY => '$Lpublic'}
append '$T', 'r3', 'f:s', 'x', {VISIBILITY => '$Lsecret'}
put '$T', 'r4', 'f:v', 'stays', {VISIBILITY => '$Lsecret'}
delete '$T', 'r4', 'f:v', {VISIBILITY => '$Lpublic'}
put '$T', 'r5', 'f:v', 'deleted', {VISIBILITY => '$Lsecret'}
deleteall '$T', 'r5', {VISIBILITY => '$Lsecret'}
put '$U', 'r1', 'f:mine', 'm', {ACL => {'guest' => 'R'}}
put '$U', 'r1', 'f:theirs', 't', {ACL => {'$P' => 'RW', '@$G' => 'R'}}
#guest: 0 get '$T', 'r1' #want value=b
#guest: 0 get '$T', 'r1' #want value=d
#guest: 0 get '$T', 'r1' #want !value=c
#guest: 0 get '$T', 'r1', {AUTHORIZATIONS => ['$Lpublic']} #want !value=b
#guest: 0 get '$T', 'r1', {AUTHORIZATIONS => '$Lsecret'} #want value=b
#guest: 0 scan '$T', {AUTHORIZATIONS => ['$Lintern']} #want !value=b
#guest: 0 scan '$T' #want value=kept
#guest: 0 scan '$T' #want !value=gone
#guest: 0 get '$T', 'r3' #want value=x
#guest: 0 get '$T', 'r3' #want !f:n
#guest: 0 scan '$T' #want value=stays
#guest: 0 scan '$T' #want !value=deleted
#guest: 0 get '$U', 'r1' #want value=m
#guest: 0 get '$U', 'r1' #want !value=t
put '$T', 'r6', 'f:later', 'relabelled'
put '$T', 'r6', 'f:other', 'untouched'
#out: 1 row(s)
set_visibility '$T', '$Lintern', {COLUMNS => 'f:later', ROWPREFIXFILTER => 'r6'}
#guest: 0 get '$T', 'r6' #want value=untouched
#guest: 0 get '$T', 'r6' #want !value=relabelled
