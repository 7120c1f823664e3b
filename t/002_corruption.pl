# A damaged metapage, leaf or internal page gives an ERROR that names the
# index, never a crash.  Damage that the checks on every page read cannot
# see (they check page kinds and counters only) is found by bpindex_check:
# a block whose sorted bit lies, an entry outside its block's range or its
# leaf's fences, pivots out of order, fences that disagree with the parent
# or the left neighbour, an entry stored twice, dead marks on empty slots;
# and entries that are missing although the structure is sound, by
# bpindex_check with heapallindexed.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BpindexTest;

my $node = PostgreSQL::Test::Cluster->new('corrupt');
$node->init;
preload_bpindex($node);
# PostgreSQL 18's initdb turns data checksums on: the damage done below is
# to reach bpindex's checks, not a failed page checksum
my ($controldata) = run_command([ 'pg_controldata', $node->data_dir ]);
system_or_bail('pg_checksums', '--disable', '-D', $node->data_dir)
  if $controldata =~ /^Data page checksum version:\s*[1-9]/m;
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION bpindex');

my $page_size = 8192;
my $contents = 24;                   # MAXALIGN(SizeOfPageHeaderData)
my $special = $page_size - 16;       # MAXALIGN(sizeof(BpPageOpaqueData))

# Overwrite bytes of an index's file at block * page_size + offset.
sub poke
{
	my ($index, $block, $offset, $bytes) = @_;
	my $path = $node->safe_psql('postgres', "SELECT pg_relation_filepath('$index')");
	$node->stop;
	open(my $fh, '+<', $node->data_dir . "/$path") or die "open: $!";
	binmode $fh;
	sysseek($fh, $block * $page_size + $offset, 0) or die "seek: $!";
	syswrite($fh, $bytes) == length($bytes) or die "write: $!";
	close $fh;
	$node->start;
}

# Build a fresh index; returns its name.  Its leaves are plain
# (packed_leaves = off), so that the damage below lands on the slots
# this test reads at fixed offsets; fresh_packed_index keeps the default.
sub fresh_index
{
	my ($name, $options) = @_;
	$options //= 'packed_leaves = off';
	load_table($node, "${name}_t", 20000);
	$node->safe_psql('postgres',
		"CREATE INDEX $name ON ${name}_t USING bpindex (k) WITH ($options)");
	return $name;
}

sub fresh_packed_index
{
	my ($name) = @_;
	return fresh_index($name, 'fillfactor = 90');
}

# A leaf's header and codec (src/README.md) follow its fences: 8 bytes of
# header, then the codec of one column: 16 bytes, the column's width and
# flags padded to 8, its 8-byte base.
my $leaf_prefix = 8 + 16 + 8 + 8;

# The error a forced index scan over the index's table raises.
sub scan_error
{
	my ($name) = @_;
	my ($rc, $out, $err) = $node->psql('postgres',
		"SET enable_seqscan = off; SET enable_bitmapscan = off; "
		  . "SELECT count(*) FROM ${name}_t WHERE k > 10");
	return $err;
}

# metapage magic
fresh_index('bad_meta');
poke('bad_meta', 0, $contents, "\0\0\0\0");
like(scan_error('bad_meta'), qr/index "bad_meta" is not a bpindex index/,
	'bad metapage magic names the index');

# metapage version
fresh_index('bad_version');
poke('bad_version', 0, $contents + 4, pack('V', 99));
like(scan_error('bad_version'), qr/index "bad_version" has on-disk format version 99/,
	'bad metapage version names the index');
# an index of the previous on-disk format (2: dead bits in the slots)
fresh_index('old_format');
poke('old_format', 0, $contents + 4, pack('V', 3));
like(scan_error('old_format'),
	qr/index "old_format" has on-disk format version 3.*\n.*HINT:  Rebuild the index with REINDEX INDEX old_format/,
	'an index of the previous format names REINDEX');

# page identifier of leaf block 1 (page_id is at offset 8 of the special space)
fresh_index('bad_leaf');
poke('bad_leaf', 1, $special + 8, "\xAD\xDE");
like(scan_error('bad_leaf'),
	qr/index "bad_leaf" contains corrupted page at block 1/,
	'bad leaf page identifier names the index and block');

# BPA counters of leaf block 1: the log count right after the fences, the
# leaf's header and codec and the layout (slot width 14 for int8: fences
# 32 bytes, layout 8 bytes)
fresh_index('bad_bpa');
poke('bad_bpa', 1, $contents + 32 + $leaf_prefix + 8, pack('v', 60000));
like(scan_error('bad_bpa'),
	qr/index "bad_bpa" contains corrupted page at block 1/,
	'impossible BPA counters are reported, not followed');

# the codec of a packed leaf: a block width of 9 bytes, an unknown leaf
# encoding, a codec of the wrong number of columns
fresh_packed_index('bad_codec');
poke('bad_codec', 1, $contents + 32 + 8 + 1, "\x09");
like(scan_error('bad_codec'),
	qr/index "bad_codec" contains corrupted page at block 1/,
	'an impossible leaf codec is reported, not followed');
fresh_packed_index('bad_encoding');
poke('bad_encoding', 1, $contents + 32, "\x07");
like(scan_error('bad_encoding'),
	qr/index "bad_encoding" contains corrupted page at block 1/,
	'an unknown leaf encoding is reported');
fresh_packed_index('bad_codec_natts');
poke('bad_codec_natts', 1, $contents + 32 + 8, "\x03");
like(scan_error('bad_codec_natts'),
	qr/index "bad_codec_natts" contains corrupted page at block 1/,
	'a codec of the wrong number of columns is reported');

# a zeroed (all-new) leaf page
fresh_index('zeroed_leaf');
poke('zeroed_leaf', 1, 0, "\0" x $page_size);
like(scan_error('zeroed_leaf'),
	qr/index "zeroed_leaf" contains corrupted page at block 1/,
	'an uninitialized page is reported');

###########################################################################
# Damage only bpindex_check finds.
###########################################################################

# The layout of the index's pages (src/README.md, src/bpa.c).
sub layout
{
	my ($index) = @_;
	my ($width, $log_size, $num_blocks, $block_size, $capacity, $root, $levels) =
	  split /\|/, $node->safe_psql('postgres', qq{
		SELECT slot_width, log_size, num_blocks, block_size, internal_capacity,
			root, levels FROM bpindex_metap('$index')});
	my $maxalign = sub { my ($x) = @_; return ($x + 7) & ~7; };
	my $region = $contents + $maxalign->(2 * $width);
	my $leaf = $region + $leaf_prefix;
	my $log = $maxalign->(16 + 2 * $num_blocks + int(($num_blocks + 7) / 8));
	return {
		width => $width,
		num_blocks => $num_blocks,
		block_size => $block_size,
		root => $root,
		levels => $levels,
		lowkey => $contents,
		highkey => $contents + $width,
		region => $leaf,
		log_count => $leaf + 8,
		used_blocks => $leaf + 10,
		nentries => $leaf + 12,
		counts => $leaf + 16,
		sorted_bits => $leaf + 16 + 2 * $num_blocks,
		log => $leaf + $log,
		header => $leaf + $log + $log_size * $width,
		blocks => $leaf + $log + ($log_size + $num_blocks) * $width,
		nitems => $region,
		pivots => $region + $maxalign->(8 + 4 * $capacity),
	};
}

# Byte offset in a leaf of entry $j of BPA block $b.
sub block_entry
{
	my ($l, $b, $j) = @_;
	return $l->{blocks} + ($b * $l->{block_size} + $j) * $l->{width};
}

# A leaf's BPA counters.
sub counters
{
	my ($l, $page) = @_;
	my %c;
	@c{qw(log_count used_blocks nentries)} =
	  unpack('v3', substr($page, $l->{log_count}, 6));
	$c{counts} = [ unpack("v$l->{num_blocks}", substr($page, $l->{counts}, 2 * $l->{num_blocks})) ];
	$c{sorted} = [ map { vec(substr($page, $l->{sorted_bits}, 8), $_, 1) } 0 .. $l->{num_blocks} - 1 ];
	return \%c;
}

# The int8 key of the slot at $offset: it follows the 6-byte heap TID
# (whose offset number holds the null bit), unaligned (src/README.md).
sub get_key { my ($page, $offset) = @_; return unpack('q<', substr($page, $offset + 6, 8)); }
sub set_key { my ($page, $offset, $key) = @_; substr($$page, $offset + 6, 8) = pack('q<', $key); }
sub rightlink { my ($page) = @_; return unpack('V', substr($page, $special + 4, 4)); }

# One page of an index, as on disk after a checkpoint.
sub read_block
{
	my ($index, $block) = @_;
	my $path = $node->safe_psql('postgres', "CHECKPOINT; SELECT pg_relation_filepath('$index')");
	open(my $fh, '<', $node->data_dir . "/$path") or die "open: $!";
	binmode $fh;
	sysseek($fh, $block * $page_size, 0) or die "seek: $!";
	sysread($fh, my $page, $page_size) == $page_size or die "read: $!";
	close $fh;
	return $page;
}

# Replace one page of an index, the server stopped.
sub write_block
{
	my ($index, $block, $page) = @_;
	poke($index, $block, 0, $page);
}

# The error bpindex_check raises, '' if none.
sub check_error
{
	my ($name, $heapallindexed) = @_;
	my ($rc, $out, $err) = $node->psql('postgres',
		"SELECT bpindex_check('$name', " . ($heapallindexed ? 'true' : 'false') . ')');
	return $err;
}

# A count over the whole table by a forced index scan, a bitmap scan and a
# sequential scan: damaged leaves give wrong answers, not errors.
sub counts_by_path
{
	my ($name, $where) = @_;
	my $q = "SELECT count(*) FROM ${name}_t WHERE $where";
	return join(' ', index_result($node, $q), bitmap_result($node, $q),
		seqscan_result($node, $q));
}

# A block whose sorted bit is set holds two entries swapped.
{
	my $name = fresh_index('bad_sorted');
	my $l = layout($name);
	my $page = read_block($name, 1);
	my $c = counters($l, $page);
	ok($c->{sorted}[0] && $c->{counts}[0] >= 2, 'bad_sorted: block 0 of leaf 1 is sorted');
	my ($e0, $e1) = (block_entry($l, 0, 0), block_entry($l, 0, 1));
	my ($s0, $s1) = (substr($page, $e0, $l->{width}), substr($page, $e1, $l->{width}));
	substr($page, $e0, $l->{width}) = $s1;
	substr($page, $e1, $l->{width}) = $s0;
	write_block($name, 1, $page);
	is(scan_error($name), '', 'bad_sorted: the page-read checks do not notice');
	like(check_error($name),
		qr/index "bad_sorted" is corrupted at block 1\n.*block marked sorted is not in ascending order/,
		'bad_sorted: bpindex_check finds the lying sorted bit');
}

# An entry lies below the lower bound of its block.
{
	my $name = fresh_index('bad_block_range');
	my $l = layout($name);
	my $page = read_block($name, 1);
	my $c = counters($l, $page);
	ok($c->{used_blocks} >= 2 && $c->{counts}[1] >= 1, 'bad_block_range: leaf 1 uses block 1');
	set_key(\$page, block_entry($l, 1, 0), -1);
	write_block($name, 1, $page);
	is(scan_error($name), '', 'bad_block_range: the page-read checks do not notice');
	like(check_error($name),
		qr/index "bad_block_range" is corrupted at block 1\n.*block entry below its header bound/,
		'bad_block_range: bpindex_check finds the entry outside its block');
}

# The largest entry of a leaf is moved above the leaf's high key (it stays
# inside the last block, which has no upper bound, so the BPA is sound).
{
	my $name = fresh_index('bad_fence');
	my $l = layout($name);
	my $page = read_block($name, 1);
	my $c = counters($l, $page);
	my $last = $c->{used_blocks} - 1;
	my $entry = block_entry($l, $last, $c->{counts}[$last] - 1);
	ok($c->{sorted}[$last], 'bad_fence: the last block of leaf 1 is sorted');
	cmp_ok(get_key($page, $entry), '<=', get_key($page, $l->{highkey}),
		'bad_fence: its last entry is not above the high key');
	set_key(\$page, $entry, get_key($page, $l->{highkey}) + 1);
	write_block($name, 1, $page);
	is(scan_error($name), '', 'bad_fence: the page-read checks do not notice');
	like(check_error($name),
		qr/index "bad_fence" is corrupted at block 1\n.*A leaf entry lies at or above the leaf's high key/,
		'bad_fence: bpindex_check finds the entry above the high key');
}

# Dead marks: a mark on a slot that holds no entry (an append there would
# inherit it), and a stored entry with the dead bit of its TID set (only
# the copies scans make carry it), are found by bpindex_check; a dead-mark
# area in the wrong place by every page read.
{
	my $name = fresh_index('bad_marks');
	my $page = read_block($name, 1);
	my ($lower, $upper) = unpack('v2', substr($page, 12, 4));
	is($upper, $special, 'bad_marks: the dead-mark area ends at the special space');
	substr($page, $upper - 1, 1) = "\xff";
	write_block($name, 1, $page);
	is(scan_error($name), '', 'bad_marks: the page-read checks do not notice a stray mark');
	like(check_error($name),
		qr/index "bad_marks" is corrupted at block 1\n.*a dead mark lies on a slot that holds no entry/,
		'bad_marks: bpindex_check finds the mark on an empty slot');

	$name = fresh_index('bad_dead_bit');
	my $l = layout($name);
	$page = read_block($name, 1);
	my $posid = block_entry($l, 0, 0) + 4;
	substr($page, $posid, 2) = pack('v', unpack('v', substr($page, $posid, 2)) | 0x8000);
	write_block($name, 1, $page);
	like(check_error($name),
		qr/index "bad_dead_bit" is corrupted at block 1\n.*a stored entry has the dead bit of its TID set/,
		'bad_dead_bit: bpindex_check finds the dead bit in a stored slot');

	$name = fresh_index('bad_hole');
	$page = read_block($name, 1);
	substr($page, 12, 2) = pack('v', $lower - 8);
	write_block($name, 1, $page);
	like(scan_error($name),
		qr/index "bad_hole" contains corrupted page at block 1/,
		'bad_hole: a misplaced dead-mark area is an error naming the index');
}

# Two pivots of the root are out of order.
{
	my $name = fresh_index('bad_pivots');
	my $l = layout($name);
	is($l->{levels}, 2, 'bad_pivots: the root is an internal page');
	my $page = read_block($name, $l->{root});
	my $nitems = unpack('v', substr($page, $l->{nitems}, 2));
	cmp_ok($nitems, '>', 4, 'bad_pivots: the root has several children');
	set_key(\$page, $l->{pivots} + 2 * $l->{width},
		get_key($page, $l->{pivots} + 3 * $l->{width}) + 1);
	write_block($name, $l->{root}, $page);
	like(check_error($name),
		qr/index "bad_pivots" is corrupted at block $l->{root}\n.*The pivots are not strictly ascending/,
		'bad_pivots: bpindex_check finds the pivots out of order');
}

# A leaf's low key differs from the pivot its parent has for it.
{
	my $name = fresh_index('bad_lowkey');
	my $l = layout($name);
	my $leaf = rightlink(read_block($name, 1));
	my $page = read_block($name, $leaf);
	set_key(\$page, $l->{lowkey}, get_key($page, $l->{lowkey}) - 1);
	write_block($name, $leaf, $page);
	is(scan_error($name), '', 'bad_lowkey: the page-read checks do not notice');
	like(check_error($name),
		qr/index "bad_lowkey" is corrupted at block $leaf\n.*fence keys do not match the range its parent gives it/,
		'bad_lowkey: bpindex_check finds the fence that disagrees with the parent');
}

# The first leaf's right-link skips the second leaf: forward scans and
# bitmap scans check the fences (the third leaf does not hold the first
# one's high key, as after a deleted leaf was reused) and descend again
# to the second leaf, so they lose nothing; bpindex_check reports it.
{
	my $name = fresh_index('bad_rightlink');
	my $page = read_block($name, 1);
	my $second = rightlink($page);
	my $third = rightlink(read_block($name, $second));
	substr($page, $special + 4, 4) = pack('V', $third);
	write_block($name, 1, $page);
	my ($by_index, $by_bitmap, $by_seqscan) = split / /, counts_by_path($name, 'k >= 0');
	is($by_index, $by_seqscan, 'bad_rightlink: an index scan finds the skipped leaf by its fences');
	is($by_bitmap, $by_seqscan, 'bad_rightlink: a bitmap scan finds the skipped leaf by its fences');
	like(check_error($name),
		qr/index "bad_rightlink" is corrupted at block $third\n.*The page's low key is not its left neighbour's high key/,
		'bad_rightlink: bpindex_check finds the broken chain of leaves');
}

# A downlink of the root leads to the page of the next child, whose range
# lies beyond the keys the link is for (as when a standby's reader holds a
# link to a page that replay deletes and a split reuses): a descent starts
# again from the root, and one that keeps landing there reports the page
# instead of returning too few rows.
{
	my $name = fresh_index('bad_downlink');
	my $l = layout($name);
	my $page = read_block($name, $l->{root});
	my $children = $l->{nitems} + 8;
	my $second = unpack('V', substr($page, $children + 4, 4));
	my $next = unpack('V', substr($page, $children + 8, 4));
	my $key = get_key(read_block($name, $second), $l->{lowkey}) + 2;
	substr($page, $children + 4, 4) = pack('V', $next);
	write_block($name, $l->{root}, $page);
	my ($rc, $out, $err) = $node->psql('postgres',
		"SET enable_seqscan = off; SET enable_bitmapscan = off; "
		  . "SELECT count(*) FROM ${name}_t WHERE k = $key");
	like($err,
		qr/index "bad_downlink" contains corrupted page at block $next\n.*low key lies beyond the key its link leads to/,
		'bad_downlink: a descent that keeps landing beyond its key reports the page');
}

# An entry of a block is also in the log: scans return its row twice.
{
	my $name = fresh_index('bad_duplicate');
	my $l = layout($name);
	my $page = read_block($name, 1);
	my $c = counters($l, $page);
	substr($page, $l->{log} + $c->{log_count} * $l->{width}, $l->{width}) =
	  substr($page, block_entry($l, 0, 0), $l->{width});
	substr($page, $l->{log_count}, 2) = pack('v', $c->{log_count} + 1);
	substr($page, $l->{nentries}, 2) = pack('v', $c->{nentries} + 1);
	write_block($name, 1, $page);
	my ($by_index, $by_bitmap, $by_seqscan) = split / /, counts_by_path($name, 'k >= 0');
	is($by_index, $by_seqscan + 1, 'bad_duplicate: an index scan returns a row twice');
	like(check_error($name),
		qr/index "bad_duplicate" is corrupted at block 1\n.*log entry also stored in a block/,
		'bad_duplicate: bpindex_check finds the entry stored twice');
}

# Entries appended to a leaf's log are dropped by lowering log_count and
# nentries together: the structure is sound, only heapallindexed notices.
{
	my $name = fresh_index('missing');
	$node->safe_psql('postgres',
		"INSERT INTO missing_t SELECT -g, -g FROM generate_series(1, 5) g");
	my $l = layout($name);
	my $page = read_block($name, 1);
	my $c = counters($l, $page);
	is($c->{log_count}, 5, 'missing: the new entries are in the log of leaf 1');
	substr($page, $l->{log_count}, 2) = pack('v', $c->{log_count} - 2);
	substr($page, $l->{nentries}, 2) = pack('v', $c->{nentries} - 2);
	write_block($name, 1, $page);
	is(counts_by_path($name, 'k < 0'), '3 3 5', 'missing: scans lose two rows');
	is(check_error($name, 0), '', 'missing: bpindex_check without heapallindexed passes');
	like(check_error($name, 1),
		qr/heap tuple \(\d+,\d+\) from table "missing_t" lacks matching index entry in index "missing"/,
		'missing: bpindex_check with heapallindexed finds the missing entries');
}

# Text keys: a slot refers to its key by offset into the page's key area
# (src/README.md, "Variable-length keys").  A fence whose reference leads
# outside the key area is caught when the page is read; an entry's, when
# its key is read, even if the reference looks like a pointer (a plain
# leaf) or lies below the key area (a packed leaf's 2-byte code).
{
	$node->safe_psql('postgres', q{
		CREATE TABLE bad_text_t (k text, v int4);
		INSERT INTO bad_text_t SELECT 'key-' || lpad(((g * 7919) % 20000)::text, 8, '0'), g
		  FROM generate_series(1, 20000) g;
		CREATE INDEX bad_text ON bad_text_t USING bpindex (k) WITH (packed_leaves = off);
		CREATE TABLE bad_text_fence_t AS SELECT * FROM bad_text_t;
		CREATE INDEX bad_text_fence ON bad_text_fence_t USING bpindex (k);
		CREATE TABLE bad_text_packed_t AS SELECT * FROM bad_text_t;
		CREATE INDEX bad_text_packed ON bad_text_packed_t USING bpindex (k);
	});
	my $width = $node->safe_psql('postgres', "SELECT slot_width FROM bpindex_metap('bad_text')");
	my $maxalign = sub { my ($x) = @_; return ($x + 7) & ~7; };
	my $text_scan_error = sub {
		my ($name) = @_;
		my ($rc, $out, $err) = $node->psql('postgres',
			"SET enable_seqscan = off; SET enable_bitmapscan = off; "
			  . "SELECT count(*) FROM ${name}_t WHERE k > 'key-'");
		return $err;
	};
	# the high fence's reference: after its heap TID and 8-byte prefix
	poke('bad_text_fence', 1, $contents + $width + 6 + 8, pack('Q<', 40000));
	like($text_scan_error->('bad_text_fence'),
		qr/index "bad_text_fence" contains corrupted page at block 1
.*A fence refers to a key outside/,
		'a fence referring outside the key area names the index and block');
	like(check_error('bad_text_fence'),
		qr/index "bad_text_fence" contains corrupted page at block 1/,
		'bpindex_check finds the fence too');

	# the first entry of block 0 of leaf 1, its region's own layout read
	# from the page (a keyed leaf chooses its region's size)
	my $page = read_block('bad_text', 1);
	my $region = $contents + $maxalign->(2 * $width) + $leaf_prefix;
	my ($slot_width, $log_size, $num_blocks) = unpack('v3', substr($page, $region, 6));
	is($slot_width, $width, 'bad_text: the leaf region holds logical slots');
	my $first = $region + $maxalign->(16 + 2 * $num_blocks + int(($num_blocks + 7) / 8))
	  + ($log_size + $num_blocks) * $width;
	substr($page, $first + 6 + 8, 8) = 'AAAAAAAA';
	write_block('bad_text', 1, $page);
	like($text_scan_error->('bad_text'),
		qr/index "bad_text" contains a key reference outside its key area/,
		'an entry referring outside the key area is reported with the index, not followed');
	like(check_error('bad_text'), qr/key reference outside its key area/,
		'bpindex_check reports the entry too');

	# the first entry of block 0 of a packed leaf: its code starts with its
	# key's 2-byte window, then the key's offset (no NULLs, so no null
	# byte), here set below the key area
	$page = read_block('bad_text_packed', 1);
	($slot_width, $log_size, $num_blocks) = unpack('v3', substr($page, $region, 6));
	ok($slot_width < $width, "bad_text_packed: the leaf region holds packed entries ($slot_width bytes)");
	$first = $region + $maxalign->(16 + 2 * $num_blocks + int(($num_blocks + 7) / 8))
	  + ($log_size + $num_blocks) * $slot_width;
	substr($page, $first + 2, 2) = pack('n', 16);
	write_block('bad_text_packed', 1, $page);
	like($text_scan_error->('bad_text_packed'),
		qr/index "bad_text_packed" contains a key reference outside its key area/,
		'a packed entry whose key offset lies outside the key area is reported with the index');
	like(check_error('bad_text_packed'), qr/key reference outside its key area/,
		'bpindex_check reports the packed entry too');

	# an internal page's key area reaching down into its pivots (key_low,
	# the last field of the special space)
	$node->safe_psql('postgres', q{
		CREATE TABLE bad_text_internal_t AS SELECT * FROM bad_text_t;
		CREATE INDEX bad_text_internal ON bad_text_internal_t USING bpindex (k);
	});
	my $root = $node->safe_psql('postgres',
		"SELECT root FROM bpindex_metap('bad_text_internal')");
	poke('bad_text_internal', $root, $special + 10, pack('v', $contents + 64));
	like($text_scan_error->('bad_text_internal'),
		qr/index "bad_text_internal" contains corrupted page at block $root
.*The key area overlaps the pivots/,
		'an internal key area below the last pivot names the index and block');

	# a keyed index chooses its internal pages' capacity at CREATE INDEX (at
	# least 4): a metapage below that, or one that its pages disagree with
	$node->safe_psql('postgres', q{
		CREATE TABLE bad_text_capacity_t AS SELECT * FROM bad_text_t;
		CREATE INDEX bad_text_capacity ON bad_text_capacity_t USING bpindex (k);
		CREATE TABLE bad_text_pages_t AS SELECT * FROM bad_text_t;
		CREATE INDEX bad_text_pages ON bad_text_pages_t USING bpindex (k);
	});
	my $capacity = $node->safe_psql('postgres',
		"SELECT internal_capacity FROM bpindex_metap('bad_text_pages')");
	# internal_capacity: after magic, version, root and four uint16 fields
	poke('bad_text_capacity', 0, $contents + 20, pack('v', 2));
	like($text_scan_error->('bad_text_capacity'),
		qr/index "bad_text_capacity" contains corrupted page at block 0
.*The metapage does not match the index definition/,
		'a keyed metapage with a capacity below 4 is refused');
	poke('bad_text_pages', 0, $contents + 20, pack('v', $capacity - 1));
	like($text_scan_error->('bad_text_pages'),
		qr/index "bad_text_pages" contains corrupted page at block \d+
.*The internal page header is invalid/,
		'internal pages whose capacity differs from the metapage\'s are refused');
}

# the server survived every error
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'server still running');
$node->stop;
done_testing();
