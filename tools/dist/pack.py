#!/usr/bin/env python3
"""Reproducible archives for tools/dist/build, with Python's standard library only.

Every file gets the time SOURCE_DATE_EPOCH (default: 1980-01-01), owner 0:0, and mode 0644 or
0755; entries are written in the order given. So the same inputs give the same bytes.

  pack.py archive OUT PREFIX SRC[:NAME]...      .tar.gz, or .zip when OUT ends in .zip
  pack.py npm-main SRC_DIR VERSION OUT LICENSE  the @newssearch/newsmock tarball
  pack.py npm-platform BINARY OS CPU VERSION OUT README LICENSE   a @newssearch/newsmock-<os>-<cpu> tarball
  pack.py wheel SRC_DIR BINARY PLATFORM_TAG VERSION OUT_DIR LICENSE   prints the wheel's path

LICENSE is the MIT license file: package/LICENSE in the npm tarballs, <name>-<version>.dist-info/licenses/LICENSE
in the wheel (PEP 639), whose metadata says License-Expression: MIT.
"""
import base64
import gzip
import hashlib
import io
import json
import os
import sys
import tarfile
import time
import zipfile

EPOCH = max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)

# npm's os/cpu names, in the order the platform packages are listed.
NPM_PLATFORMS = [
    ("linux", "x64"), ("linux", "arm64"), ("darwin", "x64"), ("darwin", "arm64"),
    ("win32", "x64"), ("win32", "arm64"),
]


def is_exec(name, data):
    return name.endswith(".exe") or data[:4] in (b"\x7fELF", b"\xcf\xfa\xed\xfe", b"MZ\x90\x00") or data[:2] == b"#!"


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write_targz(out, entries):
    """entries: (name, bytes, mode)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        dirs = set()
        for name, data, mode in entries:
            parts = name.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                d = "/".join(parts[:i])
                if d in dirs:
                    continue
                dirs.add(d)
                info = tarfile.TarInfo(d)
                info.type, info.mode, info.mtime = tarfile.DIRTYPE, 0o755, EPOCH
                tar.addfile(info)
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), mode, EPOCH
            tar.addfile(info, io.BytesIO(data))
    with open(out, "wb") as f:
        # mtime=0 and no file name in the gzip header: the same tar gives the same .gz.
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0, compresslevel=6) as gz:
            gz.write(buf.getvalue())


def write_zip(out, entries):
    date = time.gmtime(EPOCH)[:6]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name, date_time=date)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so that the mode below counts
            info.external_attr = (0o100000 | mode) << 16
            z.writestr(info, data)


def entry(name, data):
    return (name, data, 0o755 if is_exec(name, data) else 0o644)


def cmd_archive(out, prefix, *specs):
    entries = []
    for spec in specs:
        src, _, name = spec.partition(":")
        entries.append(entry(prefix + "/" + (name or os.path.basename(src)), read(src)))
    (write_zip if out.endswith(".zip") else write_targz)(out, entries)


def cmd_npm_main(src_dir, version, out, license_file):
    manifest = json.loads(read(os.path.join(src_dir, "package.json")))
    manifest["version"] = version
    manifest["optionalDependencies"] = {
        "@newssearch/newsmock-%s-%s" % p: version for p in NPM_PLATFORMS}
    entries = [("package/package.json", (json.dumps(manifest, indent=2) + "\n").encode(), 0o644),
               ("package/LICENSE", read(license_file), 0o644)]
    for name in sorted(os.listdir(src_dir)):
        if name in ("package.json", "LICENSE", "node_modules", "test") or name.startswith("."):
            continue
        entries.append(entry("package/" + name, read(os.path.join(src_dir, name))))
    write_targz(out, entries)


def cmd_npm_platform(binary, os_name, cpu, version, out, readme, license_file):
    exe = "newsmock.exe" if os_name == "win32" else "newsmock"
    manifest = {
        "name": "@newssearch/newsmock-%s-%s" % (os_name, cpu),
        "version": version,
        "description": "The newsmock binary for %s %s, installed by @newssearch/newsmock" % (os_name, cpu),
        "license": "MIT",
        "repository": {"type": "git", "url": "https://github.com/newssearch/newssearch-go"},
        "os": [os_name],
        "cpu": [cpu],
        "files": ["bin/" + exe],
        "preferUnplugged": True,
    }
    text = read(readme).decode().replace("{{PLATFORM}}", "%s-%s" % (os_name, cpu))
    write_targz(out, [
        ("package/package.json", (json.dumps(manifest, indent=2) + "\n").encode(), 0o644),
        ("package/README.md", text.encode(), 0o644),
        ("package/LICENSE", read(license_file), 0o644),
        ("package/bin/" + exe, read(binary), 0o755),
    ])


def record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def cmd_wheel(src_dir, binary, plat, version, out_dir, license_file):
    """A wheel per PEP 427: the package, the binary in the .data/scripts, a pytest11 entry point, and
    the license per PEP 639 (Metadata-Version 2.4): License-Expression, and License-File naming the
    file under the .dist-info's licenses/."""
    name = "newsmock"
    dist_info = "%s-%s.dist-info" % (name, version)
    exe = "newsmock.exe" if binary.endswith(".exe") else "newsmock"
    entries = []
    pkg = os.path.join(src_dir, name)
    for fn in sorted(os.listdir(pkg)):
        if fn.endswith((".py", ".typed")):
            entries.append((name + "/" + fn, read(os.path.join(pkg, fn)), 0o644))
    entries.append(("%s-%s.data/scripts/%s" % (name, version, exe), read(binary), 0o755))
    readme = read(os.path.join(src_dir, "README.md")).decode()
    metadata = "\n".join([
        "Metadata-Version: 2.4",
        "Name: " + name,
        "Version: " + version,
        "Summary: newsmock, the mock news search service, for Python tests: a start() helper and a pytest plugin",
        "Home-page: https://github.com/newssearch/newssearch-go",
        "License-Expression: MIT",
        "License-File: LICENSE",
        "Requires-Python: >=3.8",
        "Classifier: Framework :: Pytest",
        "Classifier: Programming Language :: Python :: 3",
        "Description-Content-Type: text/markdown",
        "", readme])
    tags = plat.split(".")
    wheel = "".join(["Wheel-Version: 1.0\n", "Generator: newssearch-go tools/dist/pack.py\n",
                     "Root-Is-Purelib: false\n"] + ["Tag: py3-none-%s\n" % t for t in tags])
    entries += [
        (dist_info + "/METADATA", metadata.encode(), 0o644),
        (dist_info + "/WHEEL", wheel.encode(), 0o644),
        (dist_info + "/entry_points.txt", b"[pytest11]\nnewsmock = newsmock.pytest_plugin\n", 0o644),
        (dist_info + "/licenses/LICENSE", read(license_file), 0o644),
    ]
    record = "".join("%s,%s,%d\n" % (n, record_hash(d), len(d)) for n, d, _ in entries)
    record += dist_info + "/RECORD,,\n"
    entries.append((dist_info + "/RECORD", record.encode(), 0o644))
    out = os.path.join(out_dir, "%s-%s-py3-none-%s.whl" % (name, version, plat))
    write_zip(out, entries)
    print(out)


def main(argv):
    cmds = {"archive": cmd_archive, "npm-main": cmd_npm_main, "npm-platform": cmd_npm_platform,
            "wheel": cmd_wheel}
    if len(argv) < 2 or argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[argv[1]](*argv[2:])


if __name__ == "__main__":
    main(sys.argv)
