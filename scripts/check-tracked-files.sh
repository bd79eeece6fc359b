#!/usr/bin/env bash
# The hygiene phase of `make test`: fails when a file tracked by git is an
# executable binary or larger than 1 MiB. Built programs, caches and tool
# binaries never belong in the repository (.gitignore covers the programs
# built under internal/cmd); the check reads what git holds (the index), not
# what happens to lie in the working tree.
#
#   scripts/check-tracked-files.sh [REPOSITORY]   (default: this repository)
#
# A file is refused when
#   - its content starts like an executable or a shared library: ELF, Mach-O,
#     Windows PE (MZ) or WebAssembly; or
#   - git records it as executable (mode 100755) and it does not start with
#     `#!` (a script); or
#   - it is larger than MAX_BYTES (1 MiB).
# A file that must be tracked all the same goes in `allowed` below, with the
# reason beside it. The list is empty and should stay short.
set -euo pipefail

repo="${1:-$(dirname "$0")/..}"
cd "${repo}"

MAX_BYTES=$((1024 * 1024))

# Paths exempt from the check, relative to the repository root, one per line,
# each with a comment above it that says why.
allowed=()

# git ls-files -s: "MODE OBJECT STAGE<TAB>PATH" for every tracked file; one
# `git cat-file --batch` hands perl each file's size and first bytes.
count="$(git ls-files | wc -l)"
report="$(
  git ls-files -s -z | ALLOWED="$(printf '%s\n' "${allowed[@]+"${allowed[@]}"}")" MAX_BYTES="${MAX_BYTES}" perl -e '
    use strict; use warnings; use IPC::Open2;
    my %allowed = map { $_ => 1 } grep { length } split /\n/, $ENV{ALLOWED};
    my $max = $ENV{MAX_BYTES};
    my $pid = open2(my $out, my $in, "git", "cat-file", "--batch");
    binmode $out; local $/ = "\0";
    while (my $entry = <STDIN>) {
      chomp $entry;
      my ($meta, $path) = split /\t/, $entry, 2;
      my ($mode, $object) = split / /, $meta;
      next if $mode eq "160000" || $allowed{$path};    # a submodule has no content here
      print $in "$object\n"; $in->flush;
      local $/ = "\n";
      my $header = <$out>; chomp $header;
      my (undef, undef, $size) = split / /, $header;
      read($out, my $content, $size + 1) == $size + 1 or die "git cat-file: short read of $path\n";
      my $magic = substr($content, 0, 4);
      print "$path: $size bytes, more than 1 MiB ($max bytes)\n" if $size > $max;
      if ($magic eq "\x7fELF") { print "$path: an ELF executable or library\n" }
      elsif ($magic =~ /^(\xfe\xed\xfa[\xce\xcf]|[\xce\xcf]\xfa\xed\xfe|\xca\xfe\xba\xbe)$/) { print "$path: a Mach-O executable or library\n" }
      elsif ($magic =~ /^MZ/) { print "$path: a Windows executable (MZ)\n" }
      elsif ($magic eq "\0asm") { print "$path: a WebAssembly module\n" }
      elsif ($mode eq "100755" && $magic !~ /^#!/) { print "$path: tracked as executable (mode 100755) but not a script (no #! line)\n" }
    }
    close $in; waitpid $pid, 0; exit($? >> 8);
  '
)"
problems=()
[[ -n "${report}" ]] && mapfile -t problems <<<"${report}"

if ((${#problems[@]} > 0)); then
  echo "check-tracked-files: ${#problems[@]} tracked file(s) must not be in git:" >&2
  printf '  %s\n' "${problems[@]}" >&2
  echo "Remove them from git (git rm --cached FILE) and cover them in .gitignore; built programs," >&2
  echo "caches and tool binaries are never committed. A file that must stay goes in 'allowed' of" >&2
  echo "scripts/check-tracked-files.sh with its reason." >&2
  exit 1
fi
echo "check-tracked-files: ${count} tracked files, no executable binary, none larger than 1 MiB"
