# alter's forms: add, change (other settings kept), delete (both spellings), table
# attributes set and unset, several changes in one command.
create '$T', {NAME => 'f', VERSIONS => 2, TTL => 3600}, 'g', 'h'
#java: create $T f;VERSIONS=2;TTL=3600 g h
alter '$T', NAME => 'f', VERSIONS => 5
#java: modfam $T f;VERSIONS=5
alter '$T', 'n'
#java: addfam $T n
alter '$T', NAME => 'g', METHOD => 'delete'
#java: delfam $T g
alter '$T', 'delete' => 'h'
#java: delfam $T h
alter '$T', MAX_FILESIZE => '134217728', COMPACTION_ENABLED => false
#java: setattr $T MAX_FILESIZE:134217728 COMPACTION_ENABLED:false
alter '$T', METHOD => 'table_att', MEMSTORE_FLUSHSIZE => 268435456
#java: setattr $T MEMSTORE_FLUSHSIZE:268435456
alter '$T', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'
#java: unsetattr $T MAX_FILESIZE
alter_async '$T', {NAME => 'f', IN_MEMORY => true, BLOOMFILTER => 'NONE'}, {NAME => 'm', COMPRESSION => 'GZ'}
#java: modfam $T f;IN_MEMORY=true;BLOOMFILTER=NONE
#java: addfam $T m;COMPRESSION=GZ
#out: Table $T is ENABLED
#out: {NAME => 'f', BLOCKCACHE => 'true', BLOCKSIZE => '65536', BLOOMFILTER => 'NONE'
describe '$T'
#state: $T
