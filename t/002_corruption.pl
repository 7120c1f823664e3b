# A damaged metapage, leaf or internal page gives an ERROR that names the
# index, never a crash.
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

# Build a fresh index; returns its name.
sub fresh_index
{
	my ($name) = @_;
	load_table($node, "${name}_t", 20000);
	$node->safe_psql('postgres',
		"CREATE INDEX $name ON ${name}_t USING bpindex (k)");
	return $name;
}

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
like(scan_error('bad_version'), qr/index "bad_version" has version 99/,
	'bad metapage version names the index');

# page identifier of leaf block 1 (page_id is at offset 8 of the special space)
fresh_index('bad_leaf');
poke('bad_leaf', 1, $special + 8, "\xAD\xDE");
like(scan_error('bad_leaf'),
	qr/index "bad_leaf" contains corrupted page at block 1/,
	'bad leaf page identifier names the index and block');

# BPA counters of leaf block 1: the log count right after the fences and
# the layout (slot width 16 for int8: fences 32 bytes, layout 8 bytes)
fresh_index('bad_bpa');
poke('bad_bpa', 1, $contents + 32 + 8, pack('v', 60000));
like(scan_error('bad_bpa'),
	qr/index "bad_bpa" contains corrupted page at block 1/,
	'impossible BPA counters are reported, not followed');

# a zeroed (all-new) leaf page
fresh_index('zeroed_leaf');
poke('zeroed_leaf', 1, 0, "\0" x $page_size);
like(scan_error('zeroed_leaf'),
	qr/index "zeroed_leaf" contains corrupted page at block 1/,
	'an uninitialized page is reported');

# the server survived every error
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'server still running');
$node->stop;
done_testing();
