#!/usr/bin/env bash
# The install tests (ctest label `install`, docs/install.md): ptm installed
# into a prefix and used from there, the way a user does.
# usage: install_test.sh MODE  with the environment
#   PTM_BUILD PTM_SOURCE  the build and source trees
#   PTM_WORK              this test's directory (PTM_WORK/prefix: the install)
#   PTM_CC PTM_CMAKE PTM_CPACK PTM_GENERATOR PTM_MAKE PTM_READELF
# MODE
#   tree       cmake --install into the prefix; every file is there, nothing
#              installed names the build or source tree, no RPATH/RUNPATH,
#              every dynamic dependency resolves, the installed ptm-config
#              answers for the prefix (also through a symbolic link)
#   cmake      examples/ configured out of tree with find_package(ptm) from
#              the prefix, built (LTO and shared) and run; ptm_target() with
#              an unknown library stops the configuration with its name
#   pkgconfig  examples/bank.c built with pkg-config from the prefix (LTO and
#              the shared variable) and run
#   buildtree  examples/ with find_package(ptm) from the build tree itself
#              (bank, bank-shared and kv run)
#   deb        cpack -G DEB; the package's Depends; dpkg installs it into an
#              empty root that has this machine's package database (its
#              Depends checked by dpkg; without clang-N it is refused) and
#              examples/ are built against that tree with CMake and with
#              pkg-config, and run
set -euo pipefail
mode=$1
build=$PTM_BUILD source=$PTM_SOURCE work=$PTM_WORK
prefix=$work/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }
log() { echo "== $*"; }

# The bank example must end with its conservation check passed.
run_bank() { # $1: executable
  local out
  out=$(PTM_POOL_SIZE=64M "$1" -t 2 -n 2000) || fail "$1 exited with $?: $out"
  echo "$out" | grep "^bank:" || true
  echo "$out" | grep -q "^bank: OK: total" || fail "$1: no 'bank: OK' in its output"
}

# The kv example (C++, a map in the pool) must give back what it was given,
# in a second process.
run_kv() { # $1: executable  $2: pool file
  rm -f "$2"
  "$1" -p "$2" -s 64 put greeting "a value longer than the short-string buffer" ||
    fail "$1 put exited with $?"
  [ "$("$1" -p "$2" get greeting)" = "a value longer than the short-string buffer" ] ||
    fail "$1: get after a restart did not return the value put"
  rm -f "$2"
  echo "kv: OK"
}

# examples/ as a standalone CMake project against the ptm found in $1.
cmake_examples() { # $1: CMAKE_PREFIX_PATH  $2: build directory
  rm -rf "$2"
  "$PTM_CMAKE" -G "$PTM_GENERATOR" -DCMAKE_MAKE_PROGRAM="$PTM_MAKE" \
    -DCMAKE_C_COMPILER="$PTM_CC" -DCMAKE_PREFIX_PATH="$1" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
    -S "$source/examples" -B "$2" > "$2.configure.log" 2>&1 ||
    { cat "$2.configure.log"; fail "configuring examples/ against $1"; }
  local found
  found=$(sed -n 's/^ptm_DIR:PATH=//p' "$2/CMakeCache.txt")
  echo "find_package(ptm): $found"
  case $found in
  "$1"/*) ;;
  *) fail "find_package(ptm) found $found, not the one under $1" ;;
  esac
  "$PTM_CMAKE" --build "$2" || fail "building examples/ against $1"
  run_bank "$2/bank"
  run_bank "$2/bank-shared"
  run_kv "$2/kv" "$2/kv.pool"
}

# examples/bank.c with pkg-config, the .pc files from $1.
pkgconfig_bank() { # $1: PKG_CONFIG_PATH  $2: output directory
  command -v pkg-config > /dev/null || fail "pkg-config is not installed"
  mkdir -p "$2"
  export PKG_CONFIG_PATH=$1
  local lib=ip_orec_lazy
  local flags shared
  flags=$(pkg-config --cflags --libs "ptm-$lib") || fail "pkg-config ptm-$lib"
  echo "pkg-config --cflags --libs ptm-$lib: $flags"
  # shellcheck disable=SC2086
  "$PTM_CC" -O2 "$source/examples/bank.c" $flags -o "$2/bank" ||
    fail "building bank.c with pkg-config"
  run_bank "$2/bank"
  shared=$(pkg-config --variable=shared_libs "ptm-$lib")
  # shellcheck disable=SC2086
  "$PTM_CC" -O2 $(pkg-config --cflags ptm) "$source/examples/bank.c" $shared \
    -o "$2/bank-shared" || fail "building bank.c with pkg-config, shared"
  "$PTM_READELF" -d "$2/bank-shared" | grep -q "libptm_$lib.so" ||
    fail "bank-shared does not link libptm_$lib.so"
  run_bank "$2/bank-shared"
}

case $mode in
tree)
  rm -rf "$prefix"
  "$PTM_CMAKE" --install "$build" --prefix "$prefix" > "$work/install.log" ||
    fail "cmake --install"
  log "installed $(find "$prefix" -type f | wc -l) files into $prefix"
  libs=$("$build/bin/ptm-config" --list)
  [ -n "$libs" ] || fail "the build tree's ptm-config lists no library"
  expect=(include/ptm.h include/ptm_abi.h lib/libptm_plugin.so
          lib/libptm_plugin_frontend.so bin/ptm-config bin/ptm-pool
          bin/ptm-memcached lib/cmake/ptm/ptmConfig.cmake
          lib/cmake/ptm/ptmConfigVersion.cmake lib/cmake/ptm/ptmTargets.cmake
          lib/cmake/ptm/ptm_target.cmake lib/pkgconfig/ptm.pc
          share/doc/ptm/README.md share/doc/ptm/ABI.md)
  for lib in $libs; do
    expect+=("lib/libptm_$lib.so" "lib/libptm_$lib.a" "lib/pkgconfig/ptm-$lib.pc")
  done
  for f in "${expect[@]}"; do
    [ -f "$prefix/$f" ] || fail "not installed: $f"
  done
  log "all ${#expect[@]} expected files present"

  # No installed file names the trees it was built from (binaries included).
  for tree in "$build" "$source"; do
    if grep -r -l -F -a "$tree" "$prefix"; then
      fail "the files above contain the path $tree"
    fi
  done
  log "no installed file contains $build or $source"

  # ELF files: no RPATH/RUNPATH, every NEEDED library found by the loader.
  nelf=0
  while IFS= read -r f; do
    head -c 4 "$f" | grep -q "ELF" || continue
    nelf=$((nelf + 1))
    dyn=$("$PTM_READELF" -d "$f") || fail "readelf -d $f"
    if echo "$dyn" | grep -E "RPATH|RUNPATH"; then
      fail "$f has an RPATH/RUNPATH"
    fi
    if ldd "$f" | grep "not found"; then
      fail "$f: a dependency is not found"
    fi
  done < <(find "$prefix/bin" "$prefix/lib" -maxdepth 1 -type f)
  # every library's .so, the plugin and its companion, ptm-pool, ptm-memcached
  want=$(($(echo "$libs" | wc -l) + 4))
  [ "$nelf" -eq "$want" ] || fail "$nelf ELF files, expected $want"
  log "$nelf ELF files: no RPATH/RUNPATH, all dependencies found"

  # The installed ptm-config answers for the prefix, also through a link.
  real=$(cd "$prefix" && pwd -P)
  mkdir -p "$work/link"
  ln -sf "$prefix/bin/ptm-config" "$work/link/ptm-config"
  for config in "$prefix/bin/ptm-config" "$work/link/ptm-config"; do
    got=$("$config" --cflags)
    want="-I$real/include -fplugin=$real/lib/libptm_plugin.so"
    [ "$got" = "$want" ] || fail "$config --cflags: '$got', expected '$want'"
    got=$("$config" --ldflags ip_orec_lazy)
    case $got in
    *" $real/lib/libptm_ip_orec_lazy.a "*) ;;
    *) fail "$config --ldflags ip_orec_lazy: '$got'" ;;
    esac
    got=$("$config" --ldflags ip_orec_lazy --shared)
    case $got in
    "-L$real/lib -Wl,-rpath,$real/lib -lptm_ip_orec_lazy "*) ;;
    *) fail "$config --ldflags ip_orec_lazy --shared: '$got'" ;;
    esac
    [ "$("$config" --list)" = "$libs" ] || fail "$config --list differs from the build tree's"
    [ "$("$config" --buffered)" = "$("$build/bin/ptm-config" --buffered)" ] ||
      fail "$config --buffered differs from the build tree's"
    [ "$("$config" --libdir)" = "$real/lib" ] || fail "$config --libdir"
    [ "$("$config" --includedir)" = "$real/include" ] || fail "$config --includedir"
    # The clang of the plugin's LLVM major, by name (no path of this machine).
    major=$("$build/bin/ptm-config" --llvm-version)
    [ "$("$config" --llvm-version)" = "$major" ] || fail "$config --llvm-version"
    [ "$("$config" --cc)" = "clang-$major" ] || fail "$config --cc: '$("$config" --cc)'"
    [ "$("$config" --cxx)" = "clang++-$major" ] || fail "$config --cxx"
  done
  if "$prefix/bin/ptm-config" --ldflags testrt > /dev/null 2>&1; then
    fail "the installed ptm-config accepts testrt, which is not installed"
  fi
  log "installed ptm-config answers for $real"
  "$prefix/bin/ptm-config" --version
  ;;
cmake)
  cmake_examples "$prefix" "$work/examples-cmake"
  bad=$work/examples-badlib
  rm -rf "$bad"
  if "$PTM_CMAKE" -G "$PTM_GENERATOR" -DCMAKE_MAKE_PROGRAM="$PTM_MAKE" \
       -DCMAKE_C_COMPILER="$PTM_CC" -DCMAKE_PREFIX_PATH="$prefix" \
       -DPTM_EXAMPLE_LIBRARY=nosuchlib -S "$source/examples" -B "$bad" \
       > "$bad.log" 2>&1; then
    fail "ptm_target(... LIBRARY nosuchlib) configured"
  fi
  grep -q "unknown library 'nosuchlib'" "$bad.log" ||
    { cat "$bad.log"; fail "no 'unknown library' message for nosuchlib"; }
  log "ptm_target(LIBRARY nosuchlib) stops the configuration"
  ;;
pkgconfig)
  pkgconfig_bank "$prefix/lib/pkgconfig" "$work/examples-pkgconfig"
  ;;
buildtree)
  cmake_examples "$build" "$work/examples-buildtree"
  ;;
deb)
  rm -rf "$work/deb"
  mkdir -p "$work/deb"
  (cd "$work/deb" && "$PTM_CPACK" -G DEB --config "$build/CPackConfig.cmake" \
     -B "$work/deb" > cpack.log 2>&1) ||
    { cat "$work/deb/cpack.log"; fail "cpack -G DEB"; }
  rm -rf "$work/deb/_CPack_Packages"   # the staging copy
  deb=$(ls "$work"/deb/ptm_*.deb)
  log "$deb: $(du -h "$deb" | cut -f1)"
  info=$(dpkg-deb -I "$deb")
  echo "$info" | grep -E "^ (Package|Version|Architecture|Depends):"
  depends=$(echo "$info" | sed -n 's/^ Depends: //p')
  for dep in "clang-[0-9]+ \(>= 1:[0-9.]+\)" "lld-[0-9]+ " "libpmem1" \
             "libpmem-dev" "libstdc\+\+6"; do
    echo "$depends" | grep -qE "$dep" || fail "Depends lacks $dep: $depends"
  done
  # dpkg installs the package into an empty root whose package database is
  # a copy of this machine's: it checks Depends against Debian's installed
  # packages, as on a machine that has them and nothing of ptm's build.
  root=$work/deb/root
  dpkg_root() { # $1: root; the rest: dpkg's arguments
    local r=$1
    shift
    local force=()
    [ "$(id -u)" = 0 ] || force=(--force-not-root)
    dpkg "${force[@]}" --root="$r" --admindir="$r/var/lib/dpkg" \
      --force-script-chrootless --log=/dev/null "$@"
  }
  new_root() { # $1: root  $2: a package left out of its database, or ""
    rm -rf "$1"
    mkdir -p "$1/var/lib/dpkg/updates" "$1/var/lib/dpkg/info"
    : > "$1/var/lib/dpkg/available"
    awk -v RS= -v ORS='\n\n' -v out="$2" \
      '!(out != "" && $0 ~ "^Package: " out "\n")' /var/lib/dpkg/status \
      > "$1/var/lib/dpkg/status"
  }
  new_root "$root" ""
  dpkg_root "$root" -i "$deb" > "$work/deb/dpkg.log" 2>&1 ||
    { tail -20 "$work/deb/dpkg.log"; fail "dpkg -i of the package"; }
  dpkg_root "$root" -s ptm | grep -q "^Status: install ok installed" ||
    fail "dpkg does not list ptm as installed"
  log "dpkg -i: $(dpkg_root "$root" -L ptm | grep -c .) paths installed"
  # A machine without clang-N: dpkg leaves the package unconfigured.
  clang_pkg=$(echo "$depends" | grep -oE "clang-[0-9]+" | head -1)
  new_root "$work/deb/noclang" "$clang_pkg"
  if dpkg_root "$work/deb/noclang" -i "$deb" > "$work/deb/noclang.log" 2>&1; then
    fail "dpkg installed the package on a root without $clang_pkg"
  fi
  grep -q "dependency problems" "$work/deb/noclang.log" ||
    { tail -5 "$work/deb/noclang.log"; fail "no dependency problem without $clang_pkg"; }
  log "without $clang_pkg: dpkg refuses (dependency problems)"
  rm -rf "$work/deb/noclang"
  for f in usr/include/ptm.h usr/lib/libptm_plugin.so usr/bin/ptm-config \
           usr/lib/cmake/ptm/ptmConfig.cmake usr/lib/pkgconfig/ptm.pc; do
    [ -f "$root/$f" ] || fail "the package lacks /$f"
  done
  if grep -r -l -F -a -e "$build" -e "$source" "$root"; then
    fail "the package's files above name the build or source tree"
  fi
  "$root/usr/bin/ptm-config" --cflags
  cmake_examples "$root/usr" "$work/deb/examples-cmake"
  pkgconfig_bank "$root/usr/lib/pkgconfig" "$work/deb/examples-pkgconfig"
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
echo "install_test $mode: OK"
