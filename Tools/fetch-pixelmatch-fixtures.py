#!/usr/bin/env python3
"""Fetches pixelmatch's own test images (the PNGs of mapbox/pixelmatch's test/fixtures) into a
folder, for PixelmatchParityTests.testPixelmatchsOwnTestCases and for checking by hand:

    python3 Tools/fetch-pixelmatch-fixtures.py [FOLDER]
    layoutsnap diff FOLDER/1a.png FOLDER/1b.png --threshold 0.05 --out diff.png   # 143 pixels

They are not in this repository. npm's registry is not reachable from every machine this project
runs on, PyPI is: pixelmatch-fast 1.3.4 (MIT), a Python port, ships the same images in its source
archive, which is checked against its SHA-256 before anything is extracted. FOLDER defaults to
$LAYOUTSNAP_PIXELMATCH_FIXTURES, else ~/.cache/layoutsnap/pixelmatch-fixtures. Does nothing when
the images are already there.
"""
import hashlib, io, os, sys, tarfile, urllib.request

URL = ("https://files.pythonhosted.org/packages/ea/0a/69963b1c4f42eefcbb3dd78b9a31719d9b9c8bab4f6ff6cb6449a2eb9539/"
       "pixelmatch_fast-1.3.4.tar.gz")
SHA256 = "38b269e6c200b393e4611375e45acd6c3d216bbe6c146b5fefe17a0a1ef6718c"
PREFIX = "pixelmatch_fast-1.3.4/tests/fixtures/"
# The files pixelmatch's test suite reads: image pairs and the diff images it expects.
NAMES = ["1a", "1b", "1diff", "1diffdefaultthreshold", "1diffmask", "1emptydiffmask", "2a", "2b", "2diff",
         "3a", "3b", "3diff", "4a", "4b", "4diff", "5a", "5b", "5diff", "6a", "6b", "6diff", "6empty",
         "7a", "7b", "7diff", "8a", "8diff"]


def default_folder():
    return os.environ.get("LAYOUTSNAP_PIXELMATCH_FIXTURES") or os.path.expanduser("~/.cache/layoutsnap/pixelmatch-fixtures")


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else default_folder()
    if all(os.path.isfile(os.path.join(folder, n + ".png")) for n in NAMES):
        return
    with urllib.request.urlopen(URL, timeout=120) as response:
        archive = response.read()
    digest = hashlib.sha256(archive).hexdigest()
    if digest != SHA256:
        sys.exit(f"pixelmatch fixtures: {URL} has SHA-256 {digest}, expected {SHA256}; nothing written")
    os.makedirs(folder, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        for name in NAMES:
            data = tar.extractfile(PREFIX + name + ".png").read()
            temporary = os.path.join(folder, name + ".png.partial")
            with open(temporary, "wb") as f:
                f.write(data)
            os.replace(temporary, os.path.join(folder, name + ".png"))
    print(f"pixelmatch fixtures: {len(NAMES)} images in {folder}")


if __name__ == "__main__":
    main()
