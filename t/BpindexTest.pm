# Helpers shared by bpindex's TAP tests.
package BpindexTest;

use strict;
use warnings;
use Exporter 'import';
use IPC::Run;
use Test::More;
use Time::HiRes qw(usleep);
use PostgreSQL::Test::Utils;

our @EXPORT = qw(index_result seqscan_result bitmap_result load_table
  compare_scans check_index index_stat crash_node start_pgbench
  finish_pgbench wait_for_pgbench preload_bpindex);

# Preload bpindex on a node just initialized (its WAL resource manager is
# registered only so); standbys made from its backups inherit the setting.
sub preload_bpindex
{
	my ($node) = @_;
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'bpindex'");
}

# Results of a query with the index paths forced.
sub index_result
{
	my ($node, $query, $db) = @_;
	return $node->safe_psql($db // 'postgres',
		"SET enable_seqscan = off; SET enable_bitmapscan = off; $query");
}

# Results of the same query with every index path disabled.
sub seqscan_result
{
	my ($node, $query, $db) = @_;
	return $node->safe_psql($db // 'postgres',
		"SET enable_indexscan = off; SET enable_indexonlyscan = off; "
		  . "SET enable_bitmapscan = off; $query");
}

# Results of the query with only bitmap scans allowed on the indexes.
sub bitmap_result
{
	my ($node, $query, $db) = @_;
	return $node->safe_psql($db // 'postgres',
		"SET enable_seqscan = off; SET enable_indexscan = off; "
		  . "SET enable_indexonlyscan = off; $query");
}

# Create and fill a table of int8 keys with duplicates and NULLs.
sub load_table
{
	my ($node, $table, $rows) = @_;
	$node->safe_psql('postgres', qq{
		CREATE TABLE $table (k int8, v int4);
		INSERT INTO $table
			SELECT CASE WHEN g % 97 = 0 THEN NULL ELSE (g * 7919) % ($rows / 3) END, g
			FROM generate_series(1, $rows) g;
	});
}

# For each query: forced index scan and forced bitmap scan on $node equal a
# sequential scan on $ref_node (default: the same node).
sub compare_scans
{
	my ($node, $label, $queries, $ref_node) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	$ref_node //= $node;
	for my $q (@$queries)
	{
		my $expected = seqscan_result($ref_node, $q);
		is(index_result($node, $q), $expected, "$label: index scan: $q");
		is(bitmap_result($node, $q), $expected, "$label: bitmap scan: $q");
	}
}

# bpindex_check(index, heapallindexed) reports nothing.
sub check_index
{
	my ($node, $index, $heapallindexed, $label) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my $h = $heapallindexed ? 'true' : 'false';
	my ($rc, $out, $err) =
	  $node->psql('postgres', "SELECT bpindex_check('$index', $h)");
	is($rc . $err, '0', "$label: bpindex_check('$index', $h)");
}

# One column of bpindex_stats (levels, incomplete_splits, ...).
sub index_stat
{
	my ($node, $index, $column) = @_;
	return $node->safe_psql('postgres',
		"SELECT $column FROM bpindex_stats('$index')");
}

# Live (not zombie) processes whose parent is $ppid.
sub children_of
{
	my ($ppid) = @_;
	my @children;
	opendir(my $dh, '/proc') or die "cannot read /proc: $!";
	for my $pid (grep { /^\d+$/ } readdir $dh)
	{
		open(my $fh, '<', "/proc/$pid/stat") or next;
		my $stat = <$fh>;
		close $fh;
		next unless defined $stat && $stat =~ /\)\s+(\S)\s+(\d+)/;
		push @children, $pid if $2 == $ppid && $1 ne 'Z';
	}
	closedir $dh;
	return @children;
}

# Is $pid a process that has not exited yet (zombies count as exited)?
sub process_alive
{
	my ($pid) = @_;
	open(my $fh, '<', "/proc/$pid/stat") or return 0;
	my $stat = <$fh>;
	close $fh;
	return defined $stat && $stat =~ /\)\s+(\S)/ && $1 ne 'Z';
}

# Simulate a machine crash: SIGKILL the postmaster and every process it
# started at the same moment (the postmaster is stopped first, so it forks
# nothing meanwhile), wait until they are all gone, and remove the stale
# lock file (where nothing reaps the dead postmaster, its zombie would
# otherwise look like a running server to the next start).
sub crash_node
{
	my ($node) = @_;
	my $lockfile = $node->data_dir . '/postmaster.pid';
	open(my $fh, '<', $lockfile) or die "cannot read $lockfile: $!";
	my $pmpid = <$fh>;
	close $fh;
	chomp $pmpid;
	kill 'STOP', $pmpid;
	my @children = children_of($pmpid);
	kill 'KILL', @children;
	$node->kill9;
	for my $i (1 .. 10 * $PostgreSQL::Test::Utils::timeout_default)
	{
		last unless grep { process_alive($_) } ($pmpid, @children);
		usleep(100_000);
	}
	die "processes of node " . $node->name . " survived SIGKILL"
	  if grep { process_alive($_) } ($pmpid, @children);
	unlink $lockfile;
	unlink $node->host . '/.s.PGSQL.' . $node->port . '.lock'
	  if $PostgreSQL::Test::Utils::use_unix_sockets;
	return;
}

# Start pgbench in the background against $node.  $scripts maps file
# names (optionally with a pgbench weight, "name.sql@3") to their text;
# they are written into the node's base directory.  Returns a handle for
# wait_for_pgbench and finish_pgbench.
sub start_pgbench
{
	my ($node, $scripts, @opts) = @_;
	my @files;
	for my $name (sort keys %$scripts)
	{
		my ($base, $weight) = $name =~ /^([^@]+)(\@\d+)?$/;
		my $path = $node->basedir . "/$base";
		open(my $fh, '>', $path) or die "cannot write $path: $!";
		print $fh $scripts->{$name};
		close $fh;
		push @files, '-f', $path . ($weight // '');
	}
	my $bench = { out => '', err => '' };
	my @cmd = ('pgbench', '-n', '-h', $node->host, '-p', $node->port,
		@opts, @files, 'postgres');
	$bench->{timer} =
	  IPC::Run::timeout(3 * $PostgreSQL::Test::Utils::timeout_default);
	$bench->{h} = IPC::Run::start(\@cmd, '<', \undef, '>', \$bench->{out},
		'2>', \$bench->{err}, $bench->{timer});
	return $bench;
}

# Wait until $query (returning a boolean) is true on $node while pgbench
# runs; false if pgbench ended first or the wait timed out.
sub wait_for_pgbench
{
	my ($node, $bench, $query) = @_;
	for my $i (1 .. 10 * $PostgreSQL::Test::Utils::timeout_default)
	{
		return 1 if $node->safe_psql('postgres', $query) eq 't';
		$bench->{h}->pump_nb if $bench->{h}->pumpable;
		return 0 unless $bench->{h}->pumpable;
		usleep(100_000);
	}
	return 0;
}

# Wait for pgbench to end; returns (exit status, stdout, stderr).
sub finish_pgbench
{
	my ($bench) = @_;
	my $ok = eval { $bench->{h}->finish; };
	if ($@)
	{
		$bench->{h}->kill_kill;
		return (-1, $bench->{out}, $bench->{err} . "\n$@");
	}
	return ($ok ? 0 : $bench->{h}->result // -1, $bench->{out}, $bench->{err});
}

1;
