# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# shellcheck shell=sh
# The repository's one JDK check: cuda-graph builds and runs on a JDK 25. Sourced, never run:
#   . scripts/jdk25.sh
# by ./mvnw (a POSIX sh script, hence POSIX sh here), ./run-example.sh, .ci/run and
# scripts/gpu-bundle.sh. Safe under `set -euo pipefail` (bash) and `set -euf` (mvnw); it leaves the
# caller's IFS and noglob setting as it found them.
#
# On return JAVA_HOME is a JDK 25 (it has bin/javac and its `java -version` reports 25), exported,
# with its bin/ first on PATH. It is, in this order:
#   1. JAVA_HOME, when that is a JDK 25 (silently);
#   2. the JDK of the `java` on PATH, when that is 25 (silently when JAVA_HOME is not set);
#   3. the first JDK 25 in the usual places (one line on stderr says which): /usr/lib/jvm/*,
#      /usr/java/*, /opt/*jdk*, ~/.sdkman/candidates/java/*, ~/.jdks/*,
#      /Library/Java/JavaVirtualMachines/*/Contents/Home and the same under ~/Library.
# A JAVA_HOME that is set but is not a JDK 25 is never replaced silently: one line on stderr says what
# it is and which JDK 25 is used instead. When there is no JDK 25 at all, it says what it found and
# how to get one, and exits 1 (the caller with it).
#
# For tests (scripts/test-jdk25.sh): JDK25_SEARCH, when set, replaces the usual places: glob patterns
# joined by ':' (empty: search nowhere).

# What directory $1 is, in _j25_what (it completes "JAVA_HOME is ..."); status 0 when it is a JDK 25.
_j25_check() {
  if [ ! -x "$1/bin/java" ]; then
    _j25_what="not a JDK ($1 has no bin/java)"
    return 1
  fi
  _j25_v=$({ "$1/bin/java" -version 2>&1 </dev/null || :; } |
    sed -n '/ version "/{s/.* version "\([^"]*\)".*/\1/;s/^1\.//;s/[^0-9].*//;p;}')
  if [ -z "$_j25_v" ]; then
    _j25_what="a java that reports no version ($1/bin/java)"
    return 1
  fi
  _j25_what="Java $_j25_v ($1)"
  [ "$_j25_v" = 25 ] || return 1
  if [ ! -x "$1/bin/javac" ]; then
    _j25_what="a Java 25 runtime without javac ($1 is not a JDK)"
    return 1
  fi
}

_j25_who=${0#./}
_j25_found=
_j25_note=
if [ -n "${JAVA_HOME-}" ] && _j25_check "$JAVA_HOME"; then
  _j25_found=$JAVA_HOME
else
  if [ -n "${JAVA_HOME-}" ]; then
    _j25_why="JAVA_HOME is $_j25_what"
  else
    _j25_why="JAVA_HOME is not set"
  fi
  # The java on PATH: its home is what it reports as java.home (a macOS /usr/bin/java stub, an
  # SDKMAN 'current' link, a tarball: all report the real JDK), else its resolved bin/.. .
  _j25_java=$(command -v java 2>/dev/null || :)
  if [ -n "$_j25_java" ]; then
    _j25_home=$({ "$_j25_java" -XshowSettings:properties -version 2>&1 </dev/null || :; } |
      sed -n 's/^ *java\.home = //p')
    if [ -z "$_j25_home" ]; then
      _j25_home=$(readlink -f "$_j25_java" 2>/dev/null || echo "$_j25_java")
      _j25_home=$(dirname "$(dirname "$_j25_home")")
    fi
    if _j25_check "$_j25_home"; then
      _j25_found=$_j25_home
      [ -z "${JAVA_HOME-}" ] || _j25_note="$_j25_why; using the JDK 25 of the java on PATH instead: $_j25_found"
    else
      case $_j25_what in
      "Java "* | "a Java 25"*) _j25_pathwhat="the java on PATH is $_j25_what" ;;
      *) _j25_pathwhat="the java on PATH ($_j25_java) reports no version" ;;
      esac
    fi
  else
    _j25_pathwhat="there is no java on PATH"
  fi
  if [ -z "$_j25_found" ]; then
    _j25_roots=${JDK25_SEARCH-/usr/lib/jvm/*:/usr/java/*:/opt/*jdk*:${SDKMAN_CANDIDATES_DIR:-${HOME-}/.sdkman/candidates}/java/*:${HOME-}/.jdks/*:/Library/Java/JavaVirtualMachines/*/Contents/Home:${HOME-}/Library/Java/JavaVirtualMachines/*/Contents/Home}
    _j25_seen=
    case $- in *f*) _j25_noglob=1 && set +f ;; *) _j25_noglob= ;; esac
    _j25_ifs_set=${IFS+x} _j25_ifs=${IFS-}
    IFS=:
    # Split at ':' and expand each pattern (a HOME with spaces stays whole).
    for _j25_dir in $_j25_roots; do
      [ -x "$_j25_dir/bin/java" ] || continue
      # A JDK's release file names its version: no JVM is started for the ones that are not 25.
      _j25_v=$(sed -n 's/^JAVA_VERSION="\(1\.\)*\([0-9]*\).*/\2/p' "$_j25_dir/release" 2>/dev/null || :)
      if [ -n "$_j25_v" ] && [ "$_j25_v" != 25 ]; then
        _j25_what="Java $_j25_v ($_j25_dir)"
      elif _j25_check "$_j25_dir"; then
        _j25_found=$_j25_dir
        break
      fi
      _j25_seen="$_j25_seen
    $_j25_what"
    done
    if [ -n "$_j25_ifs_set" ]; then IFS=$_j25_ifs; else unset IFS; fi
    [ -z "$_j25_noglob" ] || set -f
    if [ -z "$_j25_found" ]; then
      {
        echo "$_j25_who: cuda-graph needs a JDK 25 (Java 25 with javac), and there is none here:"
        echo "  $_j25_why;"
        echo "  $_j25_pathwhat;"
        if [ -n "${JDK25_SEARCH+x}" ]; then
          echo "  searched (JDK25_SEARCH): $_j25_roots"
        else
          echo "  searched /usr/lib/jvm, /usr/java, /opt, ~/.sdkman/candidates/java, ~/.jdks, ~/Library/Java and /Library/Java/JavaVirtualMachines"
        fi
        if [ -n "$_j25_seen" ]; then echo "  and found only:$_j25_seen"; else echo "  and found no JDK there."; fi
        echo "Install a JDK 25, e.g. with SDKMAN (https://sdkman.io): sdk install java 25-tem, or Temurin 25"
        echo "from https://adoptium.net/temurin/releases/?version=25 (or your package manager), then point"
        echo "JAVA_HOME at it (export JAVA_HOME=/path/to/jdk-25) and run $_j25_who again."
      } >&2
      exit 1
    fi
    _j25_note="$_j25_why and $_j25_pathwhat; using the JDK 25 at $_j25_found"
    [ -z "${JAVA_HOME-}" ] || _j25_note="$_j25_why; using the JDK 25 at $_j25_found instead"
  fi
fi
[ -z "$_j25_note" ] || echo "$_j25_who: $_j25_note" >&2
JAVA_HOME=$_j25_found
export JAVA_HOME
case "$PATH:" in "$JAVA_HOME/bin:"*) ;; *) PATH="$JAVA_HOME/bin:$PATH" && export PATH ;; esac
unset _j25_who _j25_found _j25_note _j25_why _j25_java _j25_home _j25_pathwhat _j25_roots _j25_seen \
  _j25_noglob _j25_ifs_set _j25_ifs _j25_dir _j25_v _j25_what
unset -f _j25_check
