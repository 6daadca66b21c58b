"""Marks an ELF file's requirement of a symbol version weak (VER_FLG_WEAK in
its .gnu.version_r), so that the dynamic linker of an older glibc loads it
(a missing weak version is not fatal) and its symbols of that version can
come from a preloaded library (lab/device/glibc236.c).

Usage: weakver.py VERSION FILE...   (e.g. weakver.py GLIBC_2.36 libevent_core-2.1.so.7)
       weakver.py --rename OLD NEW FILE...   (tests: rename a required version, same length)
Prints what it changed; exit 1 when a file has no such requirement.
"""
import struct
import sys

VER_FLG_WEAK = 2
SHT_GNU_VERNEED = 0x6FFFFFFE


def elf_hash(name):
    h = 0
    for c in name.encode():
        h = ((h << 4) + c) & 0xFFFFFFFF
        g = h & 0xF0000000
        if g:
            h ^= g >> 24
        h &= ~g & 0xFFFFFFFF
    return h


def patch(path, version, rename=None):
    data = bytearray(open(path, "rb").read())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit("weakver.py: %s: not a little-endian ELF64 file" % path)
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    hits = 0
    for s in secs:
        if s[1] != SHT_GNU_VERNEED:
            continue
        strtab = secs[s[6]][4]
        off, count = s[4], s[7]
        for _ in range(count):
            _, cnt, _, aux, nxt = struct.unpack_from("<HHIII", data, off)
            a = off + aux
            for _ in range(cnt):
                h, flags, other, name, anext = struct.unpack_from("<IHHII", data, a)
                p = strtab + name
                n = bytes(data[p:data.index(b"\0", p)]).decode()
                if n == version:
                    if rename:
                        new = rename.encode()
                        assert len(new) == len(n), "rename needs the same length"
                        data[p:p + len(new)] = new
                        struct.pack_into("<I", data, a, elf_hash(rename))
                        print("%s: %s renamed %s" % (path, n, rename))
                    else:
                        struct.pack_into("<H", data, a + 4, flags | VER_FLG_WEAK)
                        print("%s: %s weak" % (path, n))
                    hits += 1
                a += anext
            off += nxt
    if not hits:
        print("weakver.py: %s: no requirement %s" % (path, version), file=sys.stderr)
        return False
    open(path, "wb").write(data)
    return True


def main():
    a = sys.argv[1:]
    rename = None
    if a and a[0] == "--rename":
        rename, a = a[2], [a[1]] + a[3:]
    if len(a) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    ok = all([patch(f, a[0], rename) for f in a[1:]])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
