#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Prints a version the root pom.xml pins, the one place for pinned versions, without Maven:
#   scripts/pom-version.sh PROPERTY            e.g. scripts/pom-version.sh jcuda.version
# PROPERTY is a property of the root pom, written on one line as <PROPERTY>VALUE</PROPERTY>, or
# junit-platform.version, which follows junit.version: JUnit 5.X.Y ships JUnit Platform 1.X.Y
# (from JUnit 6 on, the two share one version).
set -euo pipefail
name=${1:?usage: pom-version.sh PROPERTY}
here=$(cd "$(dirname "$0")" && pwd)
if [ "$name" = junit-platform.version ]; then
  junit=$("$here/pom-version.sh" junit.version)
  case $junit in 5.*) echo "1.${junit#5.}" ;; *) echo "$junit" ;; esac
  exit 0
fi
pom=$here/../pom.xml
re=${name//./\\.}
value=$(sed -n "s#^[[:space:]]*<$re>\([^<]*\)</$re>.*#\1#p" "$pom" | head -1)
[ -n "$value" ] || { echo "pom-version.sh: the root pom.xml pins no property $name" >&2; exit 2; }
echo "$value"
