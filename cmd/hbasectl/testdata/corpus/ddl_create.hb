# create with every family setting the shell names, split keys and table attributes; the Java
# side builds the same descriptor with the builders' typed setters.
create '$T', {NAME => 'f', VERSIONS => 3, MIN_VERSIONS => 1, TTL => 86400, COMPRESSION => 'GZ',
  BLOOMFILTER => 'ROWCOL', BLOCKSIZE => 32768, IN_MEMORY => true,
  DATA_BLOCK_ENCODING => 'FAST_DIFF', BLOCKCACHE => false, KEEP_DELETED_CELLS => 'TRUE',
  REPLICATION_SCOPE => 1, METADATA => {'owner' => 'search'}},
  {NAME => 'g', CACHE_DATA_ON_WRITE => true, PREFETCH_BLOCKS_ON_OPEN => true, CONFIGURATION => {'hbase.hstore.blockingStoreFiles' => '20'}},
  SPLITS => ['b', 'm', "\x80"], MAX_FILESIZE => '1073741824', READONLY => false,
  DURABILITY => 'ASYNC_WAL', NORMALIZATION_ENABLED => true, METADATA => {'team' => 'search'}
#java: create $T f;VERSIONS=3;MIN_VERSIONS=1;TTL=86400;COMPRESSION=GZ;BLOOMFILTER=ROWCOL;BLOCKSIZE=32768;IN_MEMORY=true;DATA_BLOCK_ENCODING=FAST_DIFF;BLOCKCACHE=false;KEEP_DELETED_CELLS=TRUE;REPLICATION_SCOPE=1;META=owner:search g;CACHE_DATA_ON_WRITE=true;PREFETCH_BLOCKS_ON_OPEN=true;CONF=hbase.hstore.blockingStoreFiles:20 splits=b,m,\x80 attr=MAX_FILESIZE:1073741824 attr=READONLY:false attr=DURABILITY:ASYNC_WAL attr=NORMALIZATION_ENABLED:true attr=team:search
#state: $T
#out: Created table $T with 4 region(s)
create '$U', 'f', {NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'}
#java: create-presplit $U 4 hex f
#state: $U
create '$V', 'f', {NUMREGIONS => 3, SPLITALGO => 'UniformSplit'}
#java: create-presplit $V 3 uniform f
#state: $V
create '$W', 'f', {NUMREGIONS => 4, SPLITALGO => 'UniformSplit'}
#java: create-presplit $W 4 uniform f
#state: $W
