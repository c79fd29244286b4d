#!/usr/bin/env bash
# Installs the Debian 12 packages Sightline builds and tests with. Idempotent and quick when
# everything is present: apt-get runs only if a package is missing. Needs root (or sudo).
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config git
    protobuf-compiler libprotobuf-dev libzstd-dev libsqlite3-dev sqlite3 zlib1g-dev
    catch2
    qt6-base-dev libqcustomplot-dev libqcustomplot2.1-qt6 libgl-dev
    xvfb xauth openssh-server openssh-client python3 python3-dev desktop-file-utils appstream clang-format
    clang libclang-rt-14-dev
    libdw-dev libelf-dev liblzma-dev libbz2-dev
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "sightline: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ ! -d /usr/local/cuda/include/nvtx3 ]; then
    echo "sightline: no CUDA toolkit at /usr/local/cuda: the collector will be skipped, everything else builds." >&2
fi
