#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Installs the library's core artifacts into your local Maven repository, and nothing else: what an
# application needs until cuda-graph is on Maven Central. `./mvnw -DskipTests install` builds every
# module and downloads what only the examples, benchmarks and optional modules use (the Kotlin
# compiler, ONNX Runtime, LangChain4j, Spring); this builds only
#   cuda-graph-bom, -spi, -api, -driver, -simulator, -testkit, -blas and -nccl
# (with their sources and javadoc jars and the flattened POMs a release ships), skipping the tests
# and the format check, which ./mvnw verify runs.
#
#   scripts/install-library.sh [--with MODULE,...] [MAVEN OPTION...]
#
#   --with kotlin,embeddings,langchain4j,spring-ai,conformance-tests   also these optional modules
#            (folders of this repository; each brings what it needs: kotlin the Kotlin compiler and
#            Dokka, embeddings ONNX Runtime and LangChain4j's models, spring-ai Spring)
#   MAVEN OPTION...   passed to ./mvnw, e.g. -o, -Dmaven.repo.local=DIR, -Dmaven.javadoc.skip=true
#
# scripts/install-library-check.sh (in CI) checks that this installs the core artifacts alone and
# resolves none of what it leaves out.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=bom,spi,api,driver,simulator,testkit,blas,nccl
if [[ ${1:-} == --with ]]; then
  [[ -n ${2:-} ]] || { echo "install-library.sh: --with needs a list of modules, e.g. --with kotlin" >&2; exit 2; }
  for extra in ${2//,/ }; do
    [[ -f $extra/pom.xml ]] || {
      echo "install-library.sh: --with $2: '$extra' is not a module folder of this repository" \
        "(optional modules: kotlin, embeddings, langchain4j, spring-ai, conformance-tests)" >&2
      exit 2
    }
  done
  modules+=,$2
  shift 2
fi
exec ./mvnw -B -pl "$modules" -am -Dmaven.test.skip=true -Dspotless.check.skip=true install "$@"
