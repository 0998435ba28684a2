"""Gatehouse beside Cedar (cedarpy), Casbin (pycasbin) and Rego (regopy): the same rules, the
same requests, nanoseconds per decision. Run through run.sh, which makes the venv and builds
gatehouse-bench; `python peers.py --help` for the options.

The rule shapes at N rules, those of gatehouse-bench's scale-rules-N cases (Rules.text):
  deny  *        *    avatars/*/private-*     one wildcard deny
  allow user-K   read avatars/user-K/*        one allow per user over that user's folder (N - 2 users)
  allow *        read avatars/*               one catch-all allow
and requests by users spread evenly over the per-user rules, each for avatars/user-K/photo.png
(allowed). Each engine's answers are checked before timing: a user's photo allowed, a private
file denied, a path outside avatars/ denied.

A decision through a Python binding pays the binding (Python call, conversion of the request,
crossing into the engine) whatever the rules. That cost is measured on a one-rule set (the
catch-all allow) with the same requests and taken off, so the figures are the engines' own.
Peers at 100,000 rules take milliseconds to seconds per decision: each figure is the median of
the decisions timed within a time budget (at least 3, at most 2,000), not of thousands, in
processor time of this process (the engines decide on the calling thread).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version

import cedarpy
import casbin
import regopy


def users_of(count):
    return count - 2


def rules_of(count):
    """(effect, subject, action, resource) in file order."""
    rules = [("deny", "*", "*", "avatars/*/private-*")]
    rules += [("allow", f"user-{u}", "read", f"avatars/user-{u}/*") for u in range(users_of(count))]
    rules.append(("allow", "*", "read", "avatars/*"))
    return rules


ONE_RULE = [("allow", "*", "read", "avatars/*")]


def requests_of(count, how_many=1024):
    """Gatehouse's 1,024 requests (Rules.requests): users spread evenly over the per-user rules."""
    users = users_of(count)
    return [(f"user-{i * users // how_many}", "read", f"avatars/user-{i * users // how_many}/photo.png")
            for i in range(how_many)]


CHECKS = [
    (("user-1", "read", "avatars/user-1/photo.png"), True),
    (("user-1", "read", "avatars/user-1/private-key"), False),
    (("user-1", "read", "documents/user-1/report.txt"), False),
]


class Cedar:
    name = "cedar"

    def __init__(self, rules):
        text = []
        for effect, subject, action, resource in rules:
            head = "permit" if effect == "allow" else "forbid"
            principal = "principal" if subject == "*" else f'principal == User::"{subject}"'
            verb = "action" if action == "*" else f'action == Action::"{action}"'
            text.append(f'{head}({principal}, {verb}, resource) when {{ context.path like "{resource}" }};')
        self.policies = cedarpy.PolicySet.from_str("\n".join(text))
        self.entities = cedarpy.Entities.from_json_str("[]")

    def decide(self, subject, action, resource):
        request = {"principal": f'User::"{subject}"', "action": f'Action::"{action}"',
                   "resource": 'File::"file"', "context": {"path": resource}}
        return cedarpy.is_authorized(request, self.policies, self.entities).allowed


CASBIN_MODEL = """
[request_definition]
r = sub, act, obj

[policy_definition]
p = sub, act, obj, eft

[policy_effect]
e = some(where (p.eft == allow)) && !some(where (p.eft == deny))

[matchers]
m = (p.sub == "*" || r.sub == p.sub) && (p.act == "*" || r.act == p.act) && globMatch(r.obj, p.obj)
"""


class Casbin:
    """Casbin's globMatch `*` stops at `/`, so the catch-all is written avatars/*/*: the same
    answer for every request here (all are avatars/<user>/<file>)."""
    name = "casbin"

    def __init__(self, rules):
        self.directory = tempfile.TemporaryDirectory()
        model = os.path.join(self.directory.name, "model.conf")
        policy = os.path.join(self.directory.name, "policy.csv")
        with open(model, "w") as file:
            file.write(CASBIN_MODEL)
        with open(policy, "w") as file:
            for effect, subject, action, resource in rules:
                if resource == "avatars/*":
                    resource = "avatars/*/*"
                file.write(f"p, {subject}, {action}, {resource}, {effect}\n")
        self.enforcer = casbin.Enforcer(model, policy)

    def decide(self, subject, action, resource):
        return self.enforcer.enforce(subject, action, resource)


REGO_MODULE = """package authz

import rego.v1

default allow := false

matches(r) if {
	r.subject in {"*", input.subject}
	r.action in {"*", input.action}
	glob.match(r.resource, null, input.resource)
}

denied if {
	some r in data.rules
	r.effect == "deny"
	matches(r)
}

allowed if {
	some r in data.rules
	r.effect == "allow"
	matches(r)
}

allow if {
	allowed
	not denied
}
"""


class Rego:
    """The rules as data (the usual way to keep many rules in Rego), compiled once into a
    bundle; each decision sets the input and queries the entry point."""
    name = "rego"

    def __init__(self, rules):
        self.interpreter = regopy.Interpreter()
        self.interpreter.add_module("authz", REGO_MODULE)
        self.interpreter.add_data({"rules": [
            {"effect": e, "subject": s, "action": a, "resource": r} for e, s, a, r in rules]})
        self.bundle = self.interpreter.build(None, ["authz/allow"])

    def decide(self, subject, action, resource):
        self.interpreter.set_input({"subject": subject, "action": action, "resource": resource})
        output = self.interpreter.query_bundle_entrypoint(self.bundle, "authz/allow")
        return json.loads(str(output))["expressions"][0] is True


ENGINES = [Cedar, Casbin, Rego]


def timed(engine, requests, budget, minimum=3, maximum=2000):
    """Median processor nanoseconds per decision over the decisions made within `budget` seconds
    (processor time of this process, not wall time, so other work on a busy machine does not count)."""
    times = []
    started = time.perf_counter()
    index = 0
    while len(times) < maximum and (len(times) < minimum or time.perf_counter() - started < budget):
        subject, action, resource = requests[index % len(requests)]
        index += 7  # a stride, so a short run still spreads over the users
        start = time.process_time_ns()
        allowed = engine.decide(subject, action, resource)
        times.append(time.process_time_ns() - start)
        if not allowed:
            raise SystemExit(f"{engine.name} denied {subject} {action} {resource}")
    return statistics.median(times), len(times)


def checked(engine):
    for (subject, action, resource), expected in CHECKS:
        got = engine.decide(subject, action, resource)
        if got != expected:
            raise SystemExit(f"{engine.name}: {subject} {action} {resource} gave {got}, expected {expected}")
    return engine


def gatehouse(bench, sizes, runs):
    names = {100: "scale-rules-100", 10_000: "scale-rules-10k", 100_000: "scale-rules-100k",
             1_000_000: "scale-rules-1m"}
    wanted = [names[size] for size in sizes]
    output = subprocess.run([bench, "--filter", ",".join(wanted), "--runs", str(runs), "--json"],
                            check=True, capture_output=True, text=True).stdout
    by_name = {result["name"]: result["ns_per_op"] for result in json.loads(output)}
    return {size: by_name[names[size]] for size in sizes}


def duration(ns):
    if ns < 1_000:
        return f"{ns:.0f} ns"
    if ns < 1_000_000:
        return f"{ns / 1_000:.1f} µs"
    if ns < 1_000_000_000:
        return f"{ns / 1_000_000:.1f} ms"
    return f"{ns / 1_000_000_000:.2f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default=".build/release/gatehouse-bench", help="the gatehouse-bench binary")
    parser.add_argument("--sizes", default="100,10000,100000", help="rule counts, comma-separated")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds of timed decisions per figure")
    parser.add_argument("--runs", type=int, default=5, help="gatehouse-bench runs per case")
    parser.add_argument("--rego-max", type=int, default=10_000,
                        help="the most rules given to regopy (its loading of the rules as data grows faster "
                             "than the rules: at 100,000 it takes minutes of processor time)")
    arguments = parser.parse_args()
    sizes = [int(size) for size in arguments.sizes.split(",")]

    print(", ".join(f"{name} {version(name)}" for name in ["cedarpy", "casbin", "regopy"])
          + f"; Python {sys.version.split()[0]}", flush=True)
    ours = gatehouse(arguments.bench, sizes, arguments.runs)
    binding = {}
    for kind in ENGINES:
        engine = kind(ONE_RULE)
        binding[kind.name], _ = timed(engine, requests_of(100), arguments.budget)
    print("binding cost (one-rule set, taken off below): "
          + ", ".join(f"{name} {duration(ns)}" for name, ns in binding.items()), flush=True)

    table = {}
    for size in sizes:
        requests = requests_of(size)
        for kind in ENGINES:
            if kind is Rego and size > arguments.rego_max:
                print(f"  rego at {size:,} rules: not run (--rego-max {arguments.rego_max:,})", flush=True)
                continue
            started = time.perf_counter()
            engine = checked(kind(rules_of(size)))
            setup = time.perf_counter() - started
            total, count = timed(engine, requests, arguments.budget)
            table[size, kind.name] = (max(total - binding[kind.name], 0), count)
            print(f"  {kind.name} at {size:,} rules: load {setup:.1f} s, {count} decisions timed, "
                  f"{duration(total)} each with the binding", flush=True)
            del engine

    print()
    header = f"{'rules':>9}  {'gatehouse':>10}" + "".join(f"  {kind.name:>10}" for kind in ENGINES)
    header += "".join(f"  {kind.name + ' / gh':>12}" for kind in ENGINES)
    print(header)
    for size in sizes:
        line = f"{size:>9,}  {duration(ours[size]):>10}"
        figures = [table.get((size, kind.name), (None,))[0] for kind in ENGINES]
        line += "".join(f"  {'-' if ns is None else duration(ns):>10}" for ns in figures)
        line += "".join(f"  {'-' if ns is None else f'{ns / ours[size]:,.0f}x':>12}" for ns in figures)
        print(line)
    print("gatehouse: scale-rules-N of gatehouse-bench (FilePolicy.evaluate, a stat of the file included); "
          "peers: median of the decisions timed, binding cost taken off")
    for size, bound, name in [(100, 20, "scale-rules-100"), (10_000, 1_000, "scale-rules-10k")]:
        if size in sizes:
            ratio = table[size, "cedar"][0] / ours[size]
            print(f"target: cedar at {size:,} rules >= {bound:,} x {name}: {ratio:,.0f}  "
                  + ("PASS" if ratio >= bound else "FAIL"))


if __name__ == "__main__":
    main()
