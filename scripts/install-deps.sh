#!/usr/bin/env bash
# Installs everything ptm needs to build and test, from Debian's packages and
# PyPI. Idempotent: packages already present are skipped. Run as root (or with
# sudo available).
set -euo pipefail

# LLVM 19 builds ptm by default; LLVM 16 is the other tested major
# (cmake -DPTM_LLVM_VERSION=16, docs/install.md), which CI builds too.
packages=(
  clang-19 llvm-19-dev libclang-19-dev lld-19 llvm-19-tools clang-format-19
  clang-16 llvm-16-dev libclang-16-dev lld-16 llvm-16-tools
  libpmem-dev libpmemobj-dev python3-matplotlib
  cmake ninja-build python3 python3-pip
  memcached libmemcached-tools pkgconf
  python3-pymemcache valgrind
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  # memcached is a benchmark peer run on its own port: not a service
  if [[ " ${missing[*]} " == *" memcached "* ]]; then $SUDO service memcached stop >/dev/null 2>&1 || true; fi
else
  echo "install-deps: Debian packages present"
fi

# lit: LLVM's bundled copy when present, else from PyPI.
if [ ! -f /usr/lib/llvm-19/build/utils/lit/lit.py ] && ! command -v lit >/dev/null 2>&1; then
  echo "install-deps: installing lit from PyPI"
  python3 -m pip install --quiet lit
fi

for major in 19 16; do
  for tool in clang clang++ opt FileCheck not ld.lld llvm-ar; do
    if [ ! -x "/usr/lib/llvm-$major/bin/$tool" ]; then
      echo "install-deps: /usr/lib/llvm-$major/bin/$tool is missing after installation" >&2
      exit 1
    fi
  done
done
for tool in clang-19 clang-16 cmake ninja; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "install-deps: $tool is missing after installation" >&2
    exit 1
  fi
done
echo "install-deps: done"
