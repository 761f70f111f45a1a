#!/usr/bin/env python3
"""Extracts the code the documentation prints, so that the test command builds and runs it as printed.

  snippets.py quickstart README.md OUT   writes OUT/pom.xml, OUT/<the Java file's path> and OUT/run.sh from the
                                         README's "## Quick start": its xml block, its java block (the path is the
                                         `src/main/java/...java` line printed above it) and the bash block that
                                         follows "Build it and run it"
  snippets.py javadoc package-info.java OUT
                                         writes OUT/TourN.java for the N-th <pre>{@code ...}</pre> block of the
                                         package javadoc: the block, unchanged, as the body of main() in a class
                                         that imports org.rocshmem.api.* and org.rocshmem.api.hip.*

Prints the files it wrote. A section or block that is missing is an error naming it.
"""
import html
import os
import re
import sys

FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.M | re.S)
JAVA_PATH = re.compile(r"^`(src/main/java/[\w/]+\.java)`:\s*$", re.M)


def section(text, title):
    start = text.find("\n## " + title + "\n")
    if start < 0:
        raise SystemExit(f"snippets.py: the README has no '## {title}' section")
    end = text.find("\n## ", start + 4)
    return text[start:end if end > 0 else len(text)]


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(content)
    print(path)


def quickstart(readme, out):
    text = section(open(readme, encoding="utf-8").read(), "Quick start")
    blocks = [(m.start(), m.group(1), m.group(2)) for m in FENCE.finditer(text)]
    xml = [b for b in blocks if b[1] == "xml"]
    java = [b for b in blocks if b[1] == "java"]
    marker = text.find("Build it and run it")
    run = [b for b in blocks if b[1] == "bash" and marker >= 0 and b[0] > marker]
    if len(xml) != 1 or len(java) != 1 or not run:
        raise SystemExit(f"snippets.py: the quick start must print one pom.xml, one Java file and, after 'Build it"
                         f" and run it', a bash block (found {len(xml)} xml, {len(java)} java, {len(run)} bash)")
    paths = [m for m in JAVA_PATH.finditer(text) if m.start() < java[0][0]]
    if not paths:
        raise SystemExit("snippets.py: the quick start does not name its Java file (`src/main/java/...java`:)")
    write(os.path.join(out, "pom.xml"), xml[0][2])
    write(os.path.join(out, paths[-1].group(1)), java[0][2])
    write(os.path.join(out, "run.sh"), run[0][2])


def javadoc(source, out):
    text = open(source, encoding="utf-8").read()
    blocks = re.findall(r"<pre>\{@code\n(.*?)\n \* \}</pre>", text, re.S)
    if not blocks:
        raise SystemExit(f"snippets.py: {source} has no <pre>{{@code ...}}</pre> block")
    for n, block in enumerate(blocks, 1):
        body = "\n".join(re.sub(r"^ \* ?", "", line) for line in block.splitlines())
        body = html.unescape(body.replace("&#64;", "@"))
        indented = "\n".join(("        " + line).rstrip() for line in body.splitlines())
        write(os.path.join(out, f"Tour{n}.java"),
              "import org.rocshmem.api.*;\nimport org.rocshmem.api.hip.*;\n\n"
              f"/** Block {n} of the package javadoc of org.rocshmem.api, as printed. */\n"
              f"public class Tour{n} {{\n"
              "    public static void main(String[] args) throws Exception {\n"
              f"{indented}\n"
              "    }\n"
              "}\n")


def main(argv):
    if len(argv) != 4 or argv[1] not in ("quickstart", "javadoc"):
        raise SystemExit(__doc__)
    (quickstart if argv[1] == "quickstart" else javadoc)(argv[2], argv[3])


if __name__ == "__main__":
    main(sys.argv)
