#!/usr/bin/env python3
"""Which pages of a running program's binary are resident, and whose code or data they hold.

    python3 .ci/resident-pages.py PID [--top 25]

Reads /proc/PID/maps and /proc/PID/pagemap (root, or the process's owner with CAP_SYS_ADMIN, sees
the bits used here), finds the ELF section and the symbols on every resident page of the
executable, and sums the pages by section and by owner: the Swift module a mangled name belongs
to ($s10Foundation…), ICU (icu_NN / u_… names), CoreFoundation (CF… / __CF…), or the section
itself where no symbol covers a page (relocations, symbol tables, metadata records). A page
written since it was mapped (relocations applied, data changed) is counted as private dirty.
Needs binutils (readelf, nm). Tells where resident memory goes; the figures the README quotes
come from `screenmates-bench --only memory` and `--versus`.
"""
import bisect
import collections
import os
import re
import struct
import subprocess
import sys

PAGE = os.sysconf("SC_PAGE_SIZE")


def mappings(pid, exe):
    result = []
    with open(f"/proc/{pid}/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and fields[5] == exe:
                start, end = (int(x, 16) for x in fields[0].split("-"))
                result.append((start, end, int(fields[2], 16), fields[1]))
    return result


def resident_pages(pid, start, end):
    """(address, is_private_dirty) for every present page in [start, end)."""
    pages = []
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        pagemap.seek(start // PAGE * 8)
        data = pagemap.read((end - start) // PAGE * 8)
    for index in range(len(data) // 8):
        (entry,) = struct.unpack_from("<Q", data, index * 8)
        if entry >> 63 & 1:
            # Bit 61: a page of a file (or shared anonymous); clear: a private (written) copy.
            pages.append((start + index * PAGE, not (entry >> 61 & 1)))
    return pages


def sections(exe):
    out = subprocess.run(["readelf", "-SW", exe], capture_output=True, text=True, check=True).stdout
    result = []
    for match in re.finditer(r"\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", out):
        name, address, offset, size = match.group(1), *(int(match.group(i), 16) for i in (2, 3, 4))
        if address and size:
            result.append((address, address + size, name))
    return sorted(result)


def symbols(exe):
    out = subprocess.run(["nm", "-n", "-S", "--defined-only", exe], capture_output=True, text=True).stdout
    result = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 4:
            result.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
    return result


def owner(name):
    if name.startswith("$s") or name.startswith("_$s"):
        body = name[2:] if name.startswith("$s") else name[3:]
        match = re.match(r"(\d+)", body)
        if match:
            length = int(match.group(1))
            module = body[len(match.group(1)):len(match.group(1)) + length]
            return {"s": "Swift (stdlib)", "S": "Swift (stdlib)"}.get(module, module) or "Swift (stdlib)"
        return "Swift (stdlib)"
    if "icu_" in name or re.match(r"^u[a-z]*_", name):
        return "ICU"
    if name.startswith("CF") or name.startswith("__CF") or name.startswith("_CF") or name.startswith("kCF"):
        return "CoreFoundation"
    if name.startswith("swift_") or name.startswith("_swift") or name.startswith("_ZN5swift"):
        return "Swift runtime"
    if name.startswith("dispatch_") or name.startswith("_dispatch"):
        return "Dispatch"
    return "other C/C++"


def main():
    pid = int(sys.argv[1])
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 25
    exe = os.readlink(f"/proc/{pid}/exe")
    maps = mappings(pid, exe)
    base = min(start - offset for start, _, offset, _ in maps)
    secs = sections(exe)
    syms = symbols(exe)
    starts = [s[0] for s in syms]
    by_section = collections.Counter()
    by_owner = collections.Counter()
    dirty_by_section = collections.Counter()
    total = dirty = 0
    for start, end, _, _ in maps:
        for address, is_dirty in resident_pages(pid, start, end):
            file_address = address - base
            total += 1
            dirty += is_dirty
            index = bisect.bisect_right(secs, (file_address, float("inf"), "")) - 1
            section = secs[index][2] if index >= 0 and secs[index][1] > file_address else "(no section)"
            by_section[section] += 1
            if is_dirty:
                dirty_by_section[section] += 1
            # Owners of the symbols on this page, the page shared among them.
            first = max(0, bisect.bisect_right(starts, file_address) - 1)
            owners = collections.Counter()
            for symbol_start, size, name in syms[first:]:
                if symbol_start >= file_address + PAGE:
                    break
                if symbol_start + max(size, 1) <= file_address:
                    continue
                covered = min(symbol_start + size, file_address + PAGE) - max(symbol_start, file_address)
                owners[owner(name)] += max(covered, 1)
            if not owners:
                owners[section] = 1
            weight = sum(owners.values())
            for name, share in owners.items():
                by_owner[name] += share / weight
    kib = PAGE // 1024
    print(f"{exe}: {total * kib} KiB resident, {dirty * kib} KiB of them private dirty")
    print("By section:")
    for name, pages in by_section.most_common(top):
        print(f"  {pages * kib:8d} KiB ({dirty_by_section[name] * kib:6d} dirty)  {name}")
    print("By owner of the symbols on each page:")
    for name, pages in by_owner.most_common(top):
        print(f"  {pages * kib:8.0f} KiB  {name}")


if __name__ == "__main__":
    main()
