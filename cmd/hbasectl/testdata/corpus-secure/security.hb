# The security commands: grant and revoke at every scope (the cluster, a namespace, a table, a
# family, a column; users and groups) and user_permission's listings, compared with what Java's
# AccessControlClient lists after the shell's calls, and checked by effect: the guest reads
# after a grant (its own or its group's) and is refused after the revoke.
#out: SECURE_AUTHENTICATION
#out: AUTHORIZATION
#out: CELL_AUTHORIZATION
#out: CELL_VISIBILITY
list_security_capabilities
create '$T', 'f', 'g'
#java: create $T f g
create '$U', 'f'
#java: create $U f
create_namespace '$NS'
#java: ns-create $NS
put '$T', 'r1', 'f:q', 'v1'
put '$U', 'r1', 'f:q', 'u1'
#guest: 1 get '$T', 'r1' #want Insufficient permissions
#guest: 1 scan '$U' #want Insufficient permissions
#phase
#out: Granted guest READ on table $T
grant 'guest', 'R', '$T'
#java: grant guest R $T
grant 'guest', 'W', '$T'
#java: grant guest W $T
grant '@corpus_readers', 'R', '$U'
#java: grant @corpus_readers R $U
grant '$P', 'RW', '$T', 'f'
#java: grant $P RW $T f
grant '$P', 'R', '$T', 'g', 'q'
#java: grant $P R $T g q
grant '$P', 'RWXCA', '@$NS'
#java: grant $P RWXCA @$NS
grant '$P', 'RX'
#java: grant $P RX
grant '@$G', 'RWXCA'
#java: grant @$G RWXCA
#out: Namespace,Table,Family,Qualifier:Permission
#out: default,$T,,: [Permission: actions=READ,WRITE]
user_permission '$T'
#out: $NS,,,: [Permission: actions=READ,WRITE,EXEC,CREATE,ADMIN]
user_permission '@$NS'
#out: ,,,: [Permission: actions=READ,EXEC]
user_permission
#out: default,$U,,: [Permission: actions=READ]
user_permission 'sh_security_u_.*'
#perms: $T guest
#perms: $T $P
#perms: $U @corpus_readers
#perms: @$NS $P
#perms: - $P
#perms: - @$G
#guest: 0 get '$T', 'r1' #want value=v1
#guest: 0 put '$T', 'r2', 'f:q', 'w' #want wrote
#guest: 0 scan '$U' #want value=u1
#guest: 1 grant 'guest', 'RWXCA' #want Insufficient permissions
#phase
revoke 'guest', '$T'
#java: revoke guest $T
revoke '@corpus_readers', '$U'
#java: revoke @corpus_readers $U
revoke '$P', '$T', 'f'
#java: revoke $P $T f
revoke '$P', '@$NS'
#java: revoke $P @$NS
revoke '$P'
#java: revoke $P
revoke '@$G'
#java: revoke @$G
#out: default,$T,g,q: [Permission: actions=READ]
user_permission '$T'
revoke '$P', '$T', 'g', 'q'
#java: revoke $P $T g q
#perms: $T guest
#perms: $T $P
#perms: $U @corpus_readers
#perms: @$NS $P
#perms: - $P
#perms: - @$G
#guest: 1 get '$T', 'r1' #want Insufficient permissions
#guest: 1 scan '$U' #want Insufficient permissions
#phase
create '$V', 'f', METADATA => {'hbase.security.access.early_out' => 'false'}
#java: create $V f attr=hbase.security.access.early_out:false
put '$V', 'r1', 'f:a', 'shared'
put '$V', 'r1', 'f:b', 'private'
put '$V', 'r2', 'f:a', 'other'
#out: 1 row(s)
grant '$V', {'guest' => 'R', '@$G' => 'RW'}, {COLUMNS => 'f:a', ROWPREFIXFILTER => 'r1'}
#guest: 0 get '$V', 'r1' #want value=shared
#guest: 0 get '$V', 'r1' #want !value=private
#guest: 0 scan '$V' #want !value=other
