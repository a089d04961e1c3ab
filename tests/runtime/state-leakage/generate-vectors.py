#!/usr/bin/env python3
"""Runs the seed 003 reference code and writes the vectors our TypeScript port must match.

Usage: python3 tests/runtime/state-leakage/generate-vectors.py [--check]
  (no flag)  rewrite tests/runtime/state-leakage/fixtures/seed-003-vectors.json
  --check    print the JSON to stdout instead (the vitest suite uses this, when python3 exists,
             to prove the committed fixture is what the seed's code produces today)

The reference code below is copied verbatim from the seed document
(shared/seeds/003_*.txt); only the gate-4 threshold `3` is substituted to produce
vectors for other `accumulatedDeltaThreshold` values.
"""
import json
import math
import random
import sys
from pathlib import Path

SEED_REFERENCE_CODE = r'''
from dataclasses import dataclass
from enum import Enum, auto
import hashlib
import json

class StateVerdict(Enum):
    STATELESS_TOOL = auto()
    ISOLATED_INVOCATIONS = auto()
    STATE_LEAKAGE_DETECTED = auto()
    SESSION_LIMIT_EXHAUSTED = auto()

@dataclass(frozen=True)
class ToolInvocation:
    invocation_id: str
    tool_id: str
    has_session_state: bool
    state_delta_hash: str | None
    session_usage_ratio: float
    result_hash: str

@dataclass(frozen=True)
class StateLeakContext:
    prior_state_deltas: tuple[str, ...]
    isolation_policy: str  # "ISOLATED" | "SESSION_SHARED" | "AGENT_SHARED"

@dataclass(frozen=True)
class StateLeakPolicy:
    require_isolation_for_critical: bool
    max_session_usage_ratio: float

@dataclass(frozen=True)
class StateLeakManifest:
    verdict: StateVerdict
    directive: str
    manifest_digest: str

class ToolStateLeakageGuard:
    @staticmethod
    def _hash(data: str) -> str:
        return hashlib.sha256(data.encode("utf-8")).hexdigest()

    @classmethod
    def evaluate_invocation(
        cls, inv: ToolInvocation, ctx: StateLeakContext, policy: StateLeakPolicy
    ) -> StateLeakManifest:
        
        # Gate 1: Stateless
        if not inv.has_session_state:
            digest = cls._hash(json.dumps({
                "invocation": inv.invocation_id,
                "tool": inv.tool_id,
                "type": "STATELESS"
            }, sort_keys=True))
            return StateLeakManifest(
                verdict=StateVerdict.STATELESS_TOOL,
                directive=f"PROCEED: Tool {inv.tool_id} is stateless.",
                manifest_digest=digest
            )

        # Gate 2: Session limit
        if inv.session_usage_ratio >= policy.max_session_usage_ratio:
            return StateLeakManifest(
                verdict=StateVerdict.SESSION_LIMIT_EXHAUSTED,
                directive=f"HALT: Session usage {inv.session_usage_ratio:.2%} >= {policy.max_session_usage_ratio:.2%}.",
                manifest_digest=cls._hash(f"SESSION_LIMIT:{inv.invocation_id}")
            )

        # Gate 3: Isolation policy
        if policy.require_isolation_for_critical and ctx.isolation_policy != "ISOLATED":
            return StateLeakManifest(
                verdict=StateVerdict.STATE_LEAKAGE_DETECTED,
                directive=f"HALT: Policy requires isolation but tool is {ctx.isolation_policy}.",
                manifest_digest=cls._hash(f"NO_ISOLATION:{inv.invocation_id}")
            )

        # Gate 4: State delta accumulation check
        if ctx.prior_state_deltas and len(ctx.prior_state_deltas) >= 3:
            digest = cls._hash(json.dumps({
                "invocation": inv.invocation_id,
                "tool": inv.tool_id,
                "prior_deltas": str(len(ctx.prior_state_deltas)),
                "current_delta": inv.state_delta_hash
            }, sort_keys=True))
            return StateLeakManifest(
                verdict=StateVerdict.STATE_LEAKAGE_DETECTED,
                directive=f"WARN: {len(ctx.prior_state_deltas)} prior state deltas accumulated for {inv.tool_id}.",
                manifest_digest=digest
            )

        # Gate 5: Isolated
        digest = cls._hash(json.dumps({
            "invocation": inv.invocation_id,
            "tool": inv.tool_id,
            "policy": ctx.isolation_policy,
            "session_usage": f"{inv.session_usage_ratio:.2%}"
        }, sort_keys=True))
        
        return StateLeakManifest(
            verdict=StateVerdict.ISOLATED_INVOCATIONS,
            directive=f"PROCEED: Invocation {inv.invocation_id} with {ctx.isolation_policy} isolation.",
            manifest_digest=digest
        )
'''

GATE4_LINE = "len(ctx.prior_state_deltas) >= 3:"


def load_reference(threshold: int = 3) -> dict:
    assert SEED_REFERENCE_CODE.count(GATE4_LINE) == 1
    source = SEED_REFERENCE_CODE.replace(GATE4_LINE, f"len(ctx.prior_state_deltas) >= {threshold}:")
    namespace: dict = {}
    exec(compile(source, f"seed-003-reference(threshold={threshold})", "exec"), namespace)
    return namespace


def encode_float(value: float):
    """Floats travel as Python repr text: JSON has no NaN/Infinity and repr round-trips exactly."""
    return repr(float(value))


IDS = [
    "inv-1",
    "call_7f3a",
    "é-invocation",
    "中文调用",
    "emoji-😀-call",
    "mixed é 中 😀 \U0001F600",
    'quote"and\\backslash',
    "line\nbreak\ttab\x7fdel\x01ctl",
    "\u2028separator\ufeffbom\uffff",
    "",
]
TOOLS = [
    "browser_session",
    "http-fetch",
    "café_lookup",
    "搜索工具",
    "🔧-wrench",
    "tool with spaces",
    "\U00010000-first-astral",
]
RATIOS = [0.0, 1 / 3, 2 / 3, 0.5, 0.8, 0.9, 0.995, 0.9999, 0.99995, 1.0, 1.5, 0.125, 0.00005, 0.00125, 0.29, 1e-10]
POLICIES = ["ISOLATED", "SESSION_SHARED", "AGENT_SHARED"]


def evaluation_cases():
    rng = random.Random(3)
    cases = []
    # Each gate, with the boundary of its condition on both sides.
    for index, (inv_id, tool) in enumerate(zip(IDS, TOOLS * 2)):
        cases.append(dict(invocation_id=inv_id, tool_id=tool, has_session_state=False, state_delta_hash=None,
                          session_usage_ratio=1.0, result_hash="r", prior=[], isolation="AGENT_SHARED",
                          require=True, max_ratio=0.5, threshold=3))
    for ratio in RATIOS:
        for max_ratio in [0.8, 0.995, 0.9999, 1.0, 1 / 3, 2 / 3]:
            cases.append(dict(invocation_id=rng.choice(IDS[:7]), tool_id=rng.choice(TOOLS), has_session_state=True,
                              state_delta_hash=None, session_usage_ratio=ratio, result_hash="r",
                              prior=[], isolation=rng.choice(POLICIES), require=False, max_ratio=max_ratio,
                              threshold=3))
    for isolation in POLICIES + ["CUSTOM_POLICY_é"]:
        for require in [True, False]:
            cases.append(dict(invocation_id=rng.choice(IDS), tool_id=rng.choice(TOOLS), has_session_state=True,
                              state_delta_hash="d" * 64, session_usage_ratio=1 / 3, result_hash="r",
                              prior=["a", "b", "c", "d"], isolation=isolation, require=require, max_ratio=1.0,
                              threshold=3))
    for threshold in [0, 1, 2, 3, 5]:
        for prior_count in [0, 1, 2, 3, 4, 5, 6]:
            for delta in [None, "0" * 64, "ü-delta"]:
                cases.append(dict(invocation_id=rng.choice(IDS[:9]), tool_id=rng.choice(TOOLS), has_session_state=True,
                                  state_delta_hash=delta, session_usage_ratio=rng.choice(RATIOS[:9]), result_hash="r",
                                  prior=[f"delta-{n}" for n in range(prior_count)],
                                  isolation=rng.choice(POLICIES), require=False, max_ratio=1.0, threshold=threshold))
    # Gate 2 wins over gate 3 and 4; gate 3 wins over gate 4.
    cases.append(dict(invocation_id="order-1", tool_id="t", has_session_state=True, state_delta_hash=None,
                      session_usage_ratio=1.0, result_hash="r", prior=["a", "b", "c"], isolation="SESSION_SHARED",
                      require=True, max_ratio=1.0, threshold=3))
    cases.append(dict(invocation_id="order-2", tool_id="t", has_session_state=True, state_delta_hash=None,
                      session_usage_ratio=0.1, result_hash="r", prior=["a", "b", "c"], isolation="SESSION_SHARED",
                      require=True, max_ratio=1.0, threshold=3))
    # A lone surrogate: json.dumps escapes it, but the plain-string digests of gates 2 and 3 cannot encode it.
    for ratio, require in [(1.0, False), (0.1, True), (0.1, False)]:
        for has_state in [True, False]:
            cases.append(dict(invocation_id="lone-\udc00-surrogate", tool_id="t\ud800", has_session_state=has_state,
                              state_delta_hash=None, session_usage_ratio=ratio, result_hash="r", prior=[],
                              isolation="SESSION_SHARED", require=require, max_ratio=1.0, threshold=3))
    return cases


def evaluate(case):
    ref = load_reference(case["threshold"])
    inv = ref["ToolInvocation"](case["invocation_id"], case["tool_id"], case["has_session_state"],
                                case["state_delta_hash"], case["session_usage_ratio"], case["result_hash"])
    ctx = ref["StateLeakContext"](tuple(case["prior"]), case["isolation"])
    policy = ref["StateLeakPolicy"](case["require"], case["max_ratio"])
    try:
        manifest = ref["ToolStateLeakageGuard"].evaluate_invocation(inv, ctx, policy)
    except UnicodeEncodeError:
        expected = {"error": "UnicodeEncodeError"}
    else:
        expected = {"verdict": manifest.verdict.name, "directive": manifest.directive,
                    "manifestDigest": manifest.manifest_digest}
    return {
        "invocation": {"invocationId": case["invocation_id"], "toolId": case["tool_id"],
                       "hasSessionState": case["has_session_state"], "stateDeltaHash": case["state_delta_hash"],
                       "sessionUsageRatio": encode_float(case["session_usage_ratio"]), "resultHash": case["result_hash"]},
        "context": {"priorStateDeltas": case["prior"], "isolationPolicy": case["isolation"]},
        "policy": {"requireIsolationForCritical": case["require"], "maxSessionUsageRatio": encode_float(case["max_ratio"]),
                   "accumulatedDeltaThreshold": case["threshold"]},
        "expected": expected,
    }


def percent_values():
    values = [0.0, -0.0, 1 / 3, 2 / 3, 0.995, 0.9999, 0.99995, 0.125, 0.00125, 0.00375, 0.00005, 0.000049999,
              1.0, 0.5, 0.005, 0.015, 0.025, 0.29, 0.57, 1.005, 0.1 + 0.2, -0.00001, -0.00125, -1 / 3, 1e-10,
              12.345, 1e18, 1e20, 1e22, 1.5e300, 5e-324, 1.7976931348623157e308, math.nan, math.inf, -math.inf]
    rng = random.Random(2026)
    for _ in range(400):
        values.append(rng.random())
    for _ in range(200):
        values.append(rng.randint(0, 100000) / 800)  # many exact ties after *100
    for _ in range(200):
        values.append(rng.uniform(-1, 1) * 10 ** rng.randint(-12, 25))
    return values


def json_cases():
    return [
        {"b": 1, "a": "x"},
        {"invocation": "é", "tool": "中文", "type": "STATELESS"},
        {"emoji": "😀🔧", "current_delta": None},
        {"\U00010000": 1, "\uffff": 2, "\ue000": 3, "a": 4, "\u00e9": 5},
        {"nested": {"z": [1, 2.5, None, True, False, "s"], "a": {}}, "empty_list": []},
        {"floats": [0.1, 1e-05, 1e16, 1.5e300, -0.0, 123456789.123, 1e-7, 5e-324, 0.0001]},
        {"control": "\x00\x01\x1f\x7f\"\\/\b\f\n\r\t"},
        {"lone_surrogate": "\ud800x"},
        {"big_int": 2 ** 50, "negative": -42},
        "plain string é",
        [1, "two", None],
    ]


def main():
    output = {
        "generatedBy": "tests/runtime/state-leakage/generate-vectors.py (seed 003 reference code)",
        "python": sys.version.split()[0],
        "evaluations": [evaluate(case) for case in evaluation_cases()],
        "percent": [{"value": encode_float(v), "expected": f"{v:.2%}"} for v in percent_values()],
        "floatRepr": [{"value": encode_float(v), "expected": json.dumps(v)} for v in percent_values() if math.isfinite(v)],
        "json": [{"value": value, "expected": json.dumps(value, sort_keys=True)} for value in json_cases()],
    }
    # The fixture itself is written with ASCII escapes so no editor or git setting can alter its bytes.
    text = json.dumps(output, indent=1, ensure_ascii=True, allow_nan=False) + "\n"
    if "--check" in sys.argv:
        sys.stdout.write(text)
        return
    target = Path(__file__).resolve().parent / "fixtures" / "seed-003-vectors.json"
    target.write_text(text, encoding="ascii")
    print(f"wrote {target} ({len(output['evaluations'])} evaluations, {len(output['percent'])} percentages, "
          f"{len(output['json'])} json cases)")


if __name__ == "__main__":
    main()
