#!/usr/bin/env python3
"""The architecture's rules, checked on the source tree (docs/ARCHITECTURE.md states them):

1. Includes run one way: a file includes headers of its own room or of rooms below it, never
   of a room or layer above (ROOMS lists each room with what it may include).
2. No folder of product code holds more than MAX_FILES files.
3. No test compiles a product .cpp file directly: tests link the product's libraries.

Prints one line per violation and exits 1 if there is any; prints a summary and exits 0 if not.
"""
import os
import re
import sys

MAX_FILES = 22
PRODUCT = ("model", "collector", "views", "app")

# room -> rooms it may include besides itself. A room is a folder; the longest matching
# prefix names a file's room. Listed lowest first.
ROOMS = {
    "model/common": [],
    "model/core": ["model/common"],
    "model/text": ["model/common", "model/core"],
    "model/index": ["model/common", "model/core"],
    "model/trace": ["model/common", "model/core", "model/index"],
    "model/derived": ["model/common", "model/text", "model/core", "model/index", "model/trace"],
    "model/construct": ["model/common", "model/text", "model/core", "model/index", "model/trace", "model/derived"],
    "model/format": ["model/common", "model/text", "model/core", "model/index", "model/trace", "model/derived",
                     "model/construct"],
    "model/format/chunks": ["model/format"],
    "model/format/io": ["model/format", "model/format/chunks"],
    "model/format/paging": ["model/format", "model/format/chunks"],
    "model/stats": ["model/common", "model/text", "model/core", "model/index", "model/trace", "model/derived"],
    "model/analysis": ["model/common", "model/text", "model/core", "model/index", "model/trace", "model/stats"],
    "model/analysis/rules": ["model/analysis"],
    "model/nsys": ["model/common", "model/core"],
    "model/events": ["model/common", "model/text", "model/core", "model/index", "model/trace"],
    "model/export": ["model/common", "model/text", "model/core", "model/index", "model/trace", "model/nsys",
                     "model/stats", "model/events"],
    "model/import": ["model/common", "model/text", "model/core", "model/index", "model/trace", "model/derived",
                     "model/construct", "model/nsys", "model/format"],
    "model/import/nsys": ["model/import"],
    "model/import/json": ["model/import"],
    "model/import/chrome": ["model/import", "model/import/json"],
    "model/open": ["model/common", "model/core", "model/index", "model/trace", "model/format"],
    "collector/spool": [],
    "collector/inject": ["collector/spool"],
    "collector/inject/cupti": ["collector/inject"],
    "collector/inject/nvtx": ["collector/inject"],
    "collector/inject/osrt": ["collector/inject"],
    "collector/sampler": ["collector/spool", "model/common", "model/core"],
    "collector/perf": ["collector/spool", "model/common"],
    "collector/convert/decode": ["collector/spool", "model"],
    "collector/convert/cpu": ["collector/convert/decode", "collector/spool", "model"],
    "collector/convert/assemble": ["collector/convert/decode", "collector/convert/cpu", "collector/spool", "model"],
    "collector/launcher": ["collector/convert", "collector/perf", "collector/sampler", "collector/spool", "model"],
    "views/common": ["model"],
    "views/timeline/scale": ["model", "views/common"],
    "views/timeline/rows": ["model", "views/common", "views/timeline/scale"],
    "views/timeline/frame": ["model", "views/common", "views/timeline/scale", "views/timeline/rows"],
    "views/timeline/interaction": ["model", "views/common", "views/timeline/scale", "views/timeline/rows",
                                   "views/timeline/frame"],
    "views/timeline/tooltips": ["model", "views/common", "views/timeline/scale", "views/timeline/rows",
                                "views/timeline/frame", "views/timeline/interaction"],
    "views/timeline/widgets": ["model", "views/common", "views/timeline"],
    "views/events": ["model", "views/common"],
    "views/pagedevents": ["model", "views/common", "views/events"],
    "views/summary": ["model", "views/common", "views/events"],
    "views/callstack": ["model", "views/common"],
    "views/expert": ["model", "views/common", "views/events"],
    "app/cli": ["model", "collector/launcher", "collector/perf", "collector/sampler"],
    "app/ui/common": ["model"],
    "app/ui/remote": ["model", "app/ui/common"],
    "app/ui/profile": ["model", "app/ui/common"],
    "app/ui/document": ["model", "views", "app/ui/common"],
    "app/ui/report": ["model", "views", "app/ui/common", "app/ui/document"],
    "app/ui/shell": ["model", "views", "app/ui/common", "app/ui/remote", "app/ui/profile", "app/ui/document",
                     "app/ui/report"],
}
# A subroom may include its parent room (the longest prefix wins, so list the parent's own rule).
for room in sorted(ROOMS, key=len):
    parent = room.rsplit("/", 1)[0]
    if parent in ROOMS:
        ROOMS[room] = ROOMS[room] + [parent] + ROOMS[parent]

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def room_of(path):
    best = None
    for room in ROOMS:
        if path == room or path.startswith(room.rstrip("/") + "/"):
            if best is None or len(room) > len(best):
                best = room
    return best


def allowed(src_room, header):
    target = room_of(header)
    if target is None or target == src_room:
        return True
    for ok in ROOMS[src_room]:
        if header.startswith(ok.rstrip("/") + "/"):
            return True
    return False


def main(root):
    problems = []
    files = 0
    for top in PRODUCT:
        for folder, _, names in os.walk(os.path.join(root, top)):
            rel_folder = os.path.relpath(folder, root)
            if len(names) > MAX_FILES:
                problems.append(f"{rel_folder}: {len(names)} files, more than {MAX_FILES}; split it by responsibility")
            for name in names:
                if not name.endswith((".h", ".cpp")):
                    continue
                files += 1
                rel = os.path.join(rel_folder, name)
                room = room_of(rel)
                if room is None:
                    problems.append(f"{rel}: in no room of tests/structure/check_structure.py; add its folder there")
                    continue
                text = open(os.path.join(root, rel), encoding="utf-8", errors="replace").read()
                for header in INCLUDE.findall(text):
                    if header.startswith(PRODUCT) and not allowed(room, header):
                        problems.append(f"{rel}: includes {header}, a room above {room}")
    for folder, _, names in os.walk(os.path.join(root, "tests")):
        for name in names:
            if name == "CMakeLists.txt" or name.endswith(".cmake"):
                text = open(os.path.join(folder, name), encoding="utf-8").read()
                for m in re.finditer(r"(\$\{PROJECT_SOURCE_DIR\}/|\.\./)+((?:model|collector|views|app)/\S+\.cpp)", text):
                    problems.append(f"{os.path.relpath(os.path.join(folder, name), root)}: compiles {m.group(2)}; link its library instead")
    for p in problems:
        print(p)
    print(f"structure: {files} product files checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")))
