#!/usr/bin/env bash
# Offline schema check of deploy/k8s (used by .ci/run). Installs its two npm packages on first use.
set -euo pipefail
cd "$(dirname "$0")"
[ -d node_modules/kubernetes-models ] || npm ci --no-audit --no-fund --silent
node validate.mjs
