#!/usr/bin/env bash
# Installs the Debian packages of design.md section 8 when they are missing.
# clang-22 + mlir-22-tools; falls back to the 19 versions when 22 is not offered.
set -euo pipefail

base_pkgs=(build-essential libpython3.11 liblz4-dev zlib1g-dev ccache)

missing() {  # prints the packages of "$@" that dpkg does not have installed
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

llvm_pkgs=(clang-22 mlir-22-tools)
if [ -n "$(missing "${llvm_pkgs[@]}")" ] && [ -z "$(missing clang-19 mlir-19-tools)" ]; then
  llvm_pkgs=(clang-19 mlir-19-tools)   # a machine that already has the fallback
fi
todo=$(missing "${base_pkgs[@]}" "${llvm_pkgs[@]}")
if [ -z "$todo" ]; then
  echo "bootstrap: apt packages present"
  exit 0
fi

echo "bootstrap: installing $(echo $todo)"
export DEBIAN_FRONTEND=noninteractive
as_root apt-get update -qq
if ! apt-cache policy clang-22 | grep -q 'Candidate: [0-9]'; then
  echo "bootstrap: clang-22 not offered, falling back to clang-19 + mlir-19-tools"
  todo=$(missing "${base_pkgs[@]}" clang-19 mlir-19-tools)
fi
# shellcheck disable=SC2086
as_root apt-get install -y -qq $todo >/dev/null
echo "bootstrap: apt packages installed"
