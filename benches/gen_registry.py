"""Writes a user registry of N presets (default 5,000) shaped like the NetVM ones: bracketed
tags with named groups, a mix of flavors and flags, a trailing look-ahead on some, examples
and counter-examples on each. Deterministic for a seed.

    python3 benches/gen_registry.py OUT.toml [--presets 5000] [--seed 11]
"""
import argparse
import random


def toml_literal(s):
    assert "'''" not in s
    return "'''" + s + "'''"


def toml_basic(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--presets", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    words = ["ACK", "CLAIM", "RESULT", "NUDGE", "TOOL", "EXEC", "JOB", "PING", "SYNC", "WARN"]
    out = ['name = "generated"', 'description = "bench registry"', ""]
    for i in range(a.presets):
        tag = f"T{i:05d}"
        verbs = "|".join(rnd.sample(words, 3))
        kind = i % 4
        if kind == 0:
            flavor, flags = "python", ""
            pattern = rf"\[{tag}\s+(?P<verb>{verbs})\s+(?P<id>[A-Za-z0-9_/-]+)\]"
            text = f"[{tag} {verbs.split('|')[0]} job-{i}]"
            groups = {"id": f"job-{i}"}
        elif kind == 1:
            flavor, flags = "python", "s"
            pattern = rf"\[{tag}\s+(?P<id>[a-f0-9]+)\]\s*(?P<body>.*?)(?=\[{tag}\s|\Z)"
            text = f"[{tag} {i:08x}] payload {i}"
            groups = {"id": f"{i:08x}"}
        elif kind == 2:
            flavor, flags = "js", "i"
            pattern = rf"<{tag.lower()}:(?<n>\d+)>"
            text = f"<{tag}:{i}>"
            groups = {"n": str(i)}
        else:
            flavor, flags = "rust", ""
            pattern = rf"\b{tag}=(?P<v>[0-9]{{1,6}})\b"
            text = f"x {tag}={i % 999999} y"
            groups = {"v": str(i % 999999)}
        out.append("[[preset]]")
        out.append(f'key = "gen_{i:05d}"')
        out.append(f'purpose = "generated preset {i}"')
        out.append(f'flavor = "{flavor}"')
        out.append(f'flags = "{flags}"')
        out.append(f"pattern = {toml_literal(pattern)}")
        out.append(f'counter_examples = [{toml_basic("nothing " + tag.lower() + " here")}]')
        out.append("")
        out.append("[[preset.examples]]")
        out.append(f"text = {toml_basic(text)}")
        out.append("groups = { " + ", ".join(f"{k} = {toml_basic(v)}" for k, v in groups.items()) + " }")
        out.append("")
    with open(a.out, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
