#!/usr/bin/env bash
# Builds the DEB and TGZ packages of a configured and built Sightline build folder, extracts the
# DEB into a scratch root and runs what it installed from there.
#   test_packages.sh BUILD_DIR SCRATCH_DIR VERSION APPSTREAM_ID
# Exits non-zero with a line saying what is wrong at the first failed check.
set -euo pipefail
build=$1 scratch=$2 version=$3 appstream_id=$4

fail() { echo "packaging test: $*" >&2; exit 1; }
check_file() { [ -f "$1" ] || fail "the package lacks ${1#"$root"}"; }

rm -rf "$scratch"
mkdir -p "$scratch/out"
cd "$scratch"

echo "== cpack -G DEB;TGZ"
cpack --config "$build/CPackConfig.cmake" -G "DEB;TGZ" -B "$scratch/out" > cpack.log 2>&1 || { cat cpack.log; fail "cpack failed"; }
deb=$(ls out/*.deb 2>/dev/null | head -n1)
tgz=$(ls out/*.tar.gz 2>/dev/null | head -n1)
[ -n "$deb" ] || fail "cpack wrote no .deb (see $scratch/cpack.log)"
[ -n "$tgz" ] || fail "cpack wrote no .tar.gz (see $scratch/cpack.log)"
echo "   $deb ($(stat -c %s "$deb") bytes), $tgz ($(stat -c %s "$tgz") bytes)"

echo "== control fields"
dpkg-deb -f "$deb" Package Version Depends Recommends | tee control.txt
[ "$(dpkg-deb -f "$deb" Package)" = sightline ] || fail "the package is not named sightline"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "the package version is not $version"
dpkg-deb -f "$deb" Depends | grep -q libqt6widgets6 || fail "Depends does not name libqt6widgets6"

echo "== dpkg-deb -x"
root=$scratch/root
dpkg-deb -x "$deb" "$root"
check_file "$root/usr/bin/sightline"
check_file "$root/usr/bin/sightline-ui"
check_file "$root/usr/share/applications/sightline-ui.desktop"
check_file "$root/usr/share/icons/hicolor/scalable/apps/sightline-ui.svg"
check_file "$root/usr/share/metainfo/$appstream_id.metainfo.xml"
check_file "$root/usr/share/mime/packages/sightline.xml"
check_file "$root/usr/share/sightline/samples/sample.rep"
collector=no
if [ -f "$build/lib/libsightline-inject.so" ]; then
    collector=yes
    check_file "$root/usr/lib/sightline/libsightline-inject.so"
fi
if command -v readelf > /dev/null; then
    for binary in "$root/usr/bin/sightline" "$root/usr/bin/sightline-ui"; do
        if readelf -d "$binary" | grep -E 'RPATH|RUNPATH' | grep -q "$build"; then
            fail "${binary#"$root"} still points into the build folder (RPATH)"
        fi
    done
fi

echo "== desktop integration"
grep -qx 'MimeType=application/x-sightline-report;' "$root/usr/share/applications/sightline-ui.desktop" \
    || fail "the desktop entry does not open application/x-sightline-report"
grep -qx 'Exec=sightline-ui %F' "$root/usr/share/applications/sightline-ui.desktop" || fail "the desktop entry's Exec line is wrong"
if command -v desktop-file-validate > /dev/null; then
    desktop-file-validate "$root/usr/share/applications/sightline-ui.desktop"
fi
if command -v update-mime-database > /dev/null; then
    mkdir -p mime-db/mime/packages
    cp "$root/usr/share/mime/packages/sightline.xml" mime-db/mime/packages/
    update-mime-database mime-db/mime 2> /dev/null
    grep -q 'application/x-sightline-report:\*\.rep' mime-db/mime/globs2 || fail "*.rep is not registered as a report"
    # The magic at offset 0 of every report: \x89 S L R E P \r \n.
    LC_ALL=C grep -aq $'\x89SLREP\r\n' mime-db/mime/magic || fail "the .rep magic is not registered"
fi
if command -v appstreamcli > /dev/null; then
    appstreamcli validate --no-net "$root/usr/share/metainfo/$appstream_id.metainfo.xml"
fi

echo "== run the installed programs"
unset SIGHTLINE_INJECT_LIBRARY SIGHTLINE_CLI
out=$("$root/usr/bin/sightline" --version)
echo "   $out"
[ "$out" = "sightline $version" ] || fail "sightline --version printed '$out'"
out=$("$root/usr/bin/sightline-ui" --version)
[ "$out" = "sightline-ui $version" ] || fail "sightline-ui --version printed '$out'"
"$root/usr/bin/sightline" info "$root/usr/share/sightline/samples/sample.rep" > info.txt || fail "sightline info of the sample failed"

QT_QPA_PLATFORM=offscreen "$root/usr/bin/sightline-ui" --screenshot "$scratch/shot.png" --size 1200x800 \
    "$root/usr/share/sightline/samples/sample.rep" 2> screenshot.log || { cat screenshot.log; fail "sightline-ui --screenshot failed"; }
[ "$(head -c 8 shot.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "the screenshot is not a PNG"
size=$(stat -c %s shot.png)
[ "$size" -gt 20000 ] || fail "the screenshot is suspiciously small ($size bytes)"
echo "   sightline-ui --screenshot: shot.png, $size bytes"

if [ $collector = yes ]; then
    # The installed launcher must find the injection library beside it, at ../lib/sightline/.
    "$root/usr/bin/sightline" profile --trace=osrt -o "$scratch/true.rep" -- /bin/true 2> profile.log \
        || { cat profile.log; fail "the installed sightline profile failed"; }
    grep -q "Generated: $scratch/true.rep" profile.log || { cat profile.log; fail "sightline profile wrote no report"; }
    echo "   sightline profile -- /bin/true: $(grep Generated profile.log)"
fi

echo "== TGZ contents"
tar -tzf "$tgz" > tgz.txt
prefix=$(basename "$tgz" .tar.gz)
for entry in bin/sightline bin/sightline-ui share/applications/sightline-ui.desktop share/mime/packages/sightline.xml; do
    grep -qx "$prefix/$entry" tgz.txt || fail "the TGZ lacks $prefix/$entry"
done
[ $collector = no ] || grep -qx "$prefix/lib/sightline/libsightline-inject.so" tgz.txt || fail "the TGZ lacks the injection library"
echo "packaging test: the DEB and the TGZ install and run"
