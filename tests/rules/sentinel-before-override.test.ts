import { type InvalidTestCase, RuleTester } from '@typescript-eslint/rule-tester';

import rule, { type MessageIds, type Options } from '../../src/rules/sentinel-before-override.js';

const ruleTester = new RuleTester();

/** An invalid case whose every listed lookup is reported, with the threshold the message names. */
function invalid(
  code: string,
  lookups: string[],
  threshold: string,
  extra: Pick<InvalidTestCase<MessageIds, Options>, 'settings'> = {},
): InvalidTestCase<MessageIds, Options> {
  return {
    code,
    ...extra,
    errors: lookups.map((lookup) => ({ messageId: 'lookupBeforeSentinel', data: { lookup, threshold } })),
  };
}

ruleTester.run('sentinel-before-override', rule, {
  valid: [
    // The seed's resolver: sentinel first, then the override.
    `function getEffectivePersistenceThreshold(tool, overrides) {
       const declared = tool.maxResultSizeChars;
       if (!Number.isFinite(declared)) return declared;
       const override = overrides?.[tool.name];
       if (typeof override === 'number' && Number.isFinite(override) && override > 0) return override;
       return declared;
     }`,
    // Every sentinel form: isFinite, === Infinity, === Number.POSITIVE_INFINITY, UNBOUNDED, throw.
    `function f(tool, overrides) { if (!isFinite(tool.maxResultSizeChars)) return Infinity; return overrides[tool.name] ?? tool.maxResultSizeChars; }`,
    `function f(tool, overrides) { if (tool.maxResultSizeChars === Infinity) return Infinity; return overrides[tool.name]; }`,
    `function f(tool, overrides) { if (Number.POSITIVE_INFINITY === tool.maxResultSizeChars) { return Infinity; } return overrides.get(tool.name); }`,
    `function f(tool, overrides) { const d = tool.maxResultSizeChars; if (d === UNBOUNDED) return d; return overrides[tool.name]; }`,
    `function f(tool) { if (!Number.isFinite(tool.maxResultSizeChars)) throw new Error('unbounded'); return getFeatureValue('tengu_persist_threshold'); }`,
    // A parameter named declared…, and a destructured member.
    `function f(declaredLimit, name, overrides) { if (!Number.isFinite(declaredLimit)) return declaredLimit; return overrides[name]; }`,
    `function f({ name, maxResultSizeChars }, overrides) { if (!Number.isFinite(maxResultSizeChars)) return maxResultSizeChars; return overrides[name]; }`,
    // if/else with the override only in the finite branch.
    `function f(tool, overrides) { const d = tool.maxResultSizeChars; if (!Number.isFinite(d)) { return d; } else { return overrides[tool.name] ?? d; } }`,
    `function f(tool, overrides) { const d = tool.maxResultSizeChars; if (Number.isFinite(d)) { return overrides[tool.name] ?? d; } return d; }`,
    // Ternary and logical guards.
    `const f = (tool, overrides) => Number.isFinite(tool.maxResultSizeChars) ? overrides[tool.name] ?? tool.maxResultSizeChars : Infinity;`,
    `const f = (tool, overrides) => !Number.isFinite(tool.maxResultSizeChars) ? Infinity : overrides[tool.name];`,
    `function f(tool, overrides) { const d = tool.maxResultSizeChars; return (d !== Infinity && overrides[tool.name]) || d; }`,
    `function f(tool, overrides) { const d = tool.maxResultSizeChars; return !Number.isFinite(d) || overrides.get(tool.name); }`,
    // The sentinel on both branches of an earlier if.
    `function f(tool, overrides, strict) {
       const d = tool.maxResultSizeChars;
       if (strict) { if (!Number.isFinite(d)) return d; } else { if (d === Infinity) return d; }
       return overrides[tool.name];
     }`,
    // A combined exit: falling through means every operand was false.
    `function f(tool, overrides) { const d = tool.maxResultSizeChars; if (d === Infinity || d <= 0) return d; return overrides[tool.name]; }`,
    // Functions that do not read a declared threshold are not resolvers.
    `function getFlagValue(name, overrides) { return overrides[name]; }`,
    `function f(config) { return getFeatureValue('x') || config.overrides['y']; }`,
    // Overrides indexed at module level are not inside a resolver.
    `const fallback = overrides['Read']; function f(tool) { return tool.maxResultSizeChars; }`,
    // Non-lookup uses: non-computed members, other maps.
    `function f(tool, limits) { const d = tool.maxResultSizeChars; return limits[tool.name] ?? d; }`,
    // …unless the settings name it; then the sentinel first is fine.
    {
      code: `function f(tool, limits) { const d = tool.maxResultSizeChars; if (!Number.isFinite(d)) return d; return limits[tool.name] ?? d; }`,
      settings: { 'tool-result-guard': { overrideLookups: ['limits'] } },
    },
    // A closure has its own path: the lookup in the callback is not in the resolver.
    `function f(tool, overrides) { const d = tool.maxResultSizeChars; if (!Number.isFinite(d)) return d; return [tool].map((t) => overrides[t.name])[0]; }`,
    // Class methods.
    `class Resolver { resolve(tool) { const declared = tool.maxResultSizeChars; if (!Number.isFinite(declared)) return declared; return this.overrides[tool.name] ?? declared; } }`,
    // Loops after the exit.
    `function f(tools, tool, overrides) { if (!Number.isFinite(tool.maxResultSizeChars)) return Infinity; for (const t of tools) { if (overrides[t.name]) return overrides[t.name]; } return tool.maxResultSizeChars; }`,
  ],
  invalid: [
    // The seed's anti-pattern: the override path first.
    invalid(
      `function getEffectivePersistenceThreshold(tool, overrides) {
  const override = overrides?.[tool.name];
  if (typeof override === 'number' && override > 0) return override;
  const declared = tool.maxResultSizeChars;
  if (!Number.isFinite(declared)) return declared;
  return declared;
}`,
      ['overrides?.[tool.name]'],
      'declared',
    ),
    // No sentinel at all.
    invalid(
      `function f(tool, overrides) { return overrides[tool.name] ?? tool.maxResultSizeChars; }`,
      ['overrides[tool.name]'],
      'tool.maxResultSizeChars',
    ),
    // `??` before the guard counts as a lookup before it.
    invalid(
      `function f(tool, overrides) { const d = overrides.get(tool.name) ?? tool.maxResultSizeChars; if (!Number.isFinite(d)) return d; return d; }`,
      ['overrides.get(tool.name)'],
      'tool.maxResultSizeChars',
    ),
    // A ternary before the guard.
    invalid(
      `function f(tool, overrides, useRemote) { const d = useRemote ? overrides[tool.name] : tool.maxResultSizeChars; if (!Number.isFinite(d)) return d; return d; }`,
      ['overrides[tool.name]'],
      'tool.maxResultSizeChars',
    ),
    // A guard inside one branch does not count.
    invalid(
      `function f(tool, overrides, strict) {
  const declared = tool.maxResultSizeChars;
  if (strict) {
    if (!Number.isFinite(declared)) return declared;
  }
  return overrides[tool.name] ?? declared;
}`,
      ['overrides[tool.name]'],
      'declared',
    ),
    // A sentinel whose branch does not exit is no exit.
    invalid(
      `function f(tool, overrides) { const d = tool.maxResultSizeChars; if (!Number.isFinite(d)) { log('unbounded'); } return overrides[tool.name]; }`,
      ['overrides[tool.name]'],
      'd',
    ),
    // The sentinel on something else.
    invalid(
      `function f(tool, overrides, other) { const d = tool.maxResultSizeChars; if (!Number.isFinite(other)) return d; return overrides[tool.name]; }`,
      ['overrides[tool.name]'],
      'd',
    ),
    // Feature-flag readers, by pattern (a suffixed name still matches).
    invalid(
      `function f(tool) { const remote = getFeatureValue_CACHED_MAY_BE_STALE('tengu_tool_thresholds', {}); if (tool.maxResultSizeChars === Infinity) return Infinity; return remote[tool.name] ?? tool.maxResultSizeChars; }`,
      // Long lookups are shortened in the message.
      ["getFeatureValue_CACHED_MAY_BE_STALE('tengu_tool_thresholds'…"],
      'tool.maxResultSizeChars',
    ),
    invalid(
      `async function f(tool, statsig) { const limit = await statsig.getDynamicConfig('limits'); if (!Number.isFinite(tool.maxResultSizeChars)) return Infinity; return limit; }`,
      ["statsig.getDynamicConfig('limits')"],
      'tool.maxResultSizeChars',
    ),
    invalid(
      `function f(tool, ld, user) { if (ld.variation('persist-all', user, false)) return 1000; if (!Number.isFinite(tool.maxResultSizeChars)) return Infinity; return tool.maxResultSizeChars; }`,
      ["ld.variation('persist-all', user, false)"],
      'tool.maxResultSizeChars',
    ),
    invalid(
      `function f(tool, flags) { if (flags.isEnabled('big-results')) return 200_000; return tool.maxResultSizeChars; }`,
      ["flags.isEnabled('big-results')"],
      'tool.maxResultSizeChars',
    ),
    invalid(
      `function f(tool) { const v = getFlag('threshold'); return Number.isFinite(tool.maxResultSizeChars) ? v : Infinity; }`,
      ["getFlag('threshold')"],
      'tool.maxResultSizeChars',
    ),
    // A `declared…` parameter.
    invalid(
      `function resolve(name, declaredMax, toolOverrides) { const o = toolOverrides[name]; return o ?? declaredMax; }`,
      ['toolOverrides[name]'],
      'declaredMax',
    ),
    // this.overrides in a method.
    invalid(
      `class Resolver { resolve(tool) { const o = this.overrides.get(tool.name); if (!Number.isFinite(tool.maxResultSizeChars)) return Infinity; return o ?? tool.maxResultSizeChars; } }`,
      ['this.overrides.get(tool.name)'],
      'tool.maxResultSizeChars',
    ),
    // An arrow function.
    invalid(
      `const resolve = (tool, overrides) => overrides[tool.name] || tool.maxResultSizeChars;`,
      ['overrides[tool.name]'],
      'tool.maxResultSizeChars',
    ),
    // Two lookups, both before the exit.
    invalid(
      `function f(tool, overrides) {
  const a = overrides[tool.name];
  const b = getDynamicConfig('x');
  if (!Number.isFinite(tool.maxResultSizeChars)) return Infinity;
  return a ?? b;
}`,
      ['overrides[tool.name]', "getDynamicConfig('x')"],
      'tool.maxResultSizeChars',
    ),
    // In a loop body before the exit, and the exit after the loop.
    invalid(
      `function f(tool, sources) { for (const overrides of sources) { if (overrides[tool.name]) return overrides[tool.name]; } if (!Number.isFinite(tool.maxResultSizeChars)) return Infinity; return tool.maxResultSizeChars; }`,
      ['overrides[tool.name]', 'overrides[tool.name]'],
      'tool.maxResultSizeChars',
    ),
    // try/catch: the exit inside try may be skipped when something throws first.
    invalid(
      `function f(tool, overrides) {
  const d = tool.maxResultSizeChars;
  try { check(); if (!Number.isFinite(d)) return d; } catch { }
  return overrides[tool.name];
}`,
      ['overrides[tool.name]'],
      'd',
    ),
    // The guard in a switch case only.
    invalid(
      `function f(tool, overrides, mode) {
  const d = tool.maxResultSizeChars;
  switch (mode) { case 'strict': if (!Number.isFinite(d)) return d; break; default: break; }
  return overrides[tool.name];
}`,
      ['overrides[tool.name]'],
      'd',
    ),
    // A `let` copy is not a const bound to the threshold, so its check is not the sentinel.
    invalid(
      `function f(tool, overrides) { let d = tool.maxResultSizeChars; d = clamp(d); if (!Number.isFinite(d)) return d; return overrides[tool.name]; }`,
      ['overrides[tool.name]'],
      'tool.maxResultSizeChars',
    ),
    // Settings add lookups.
    invalid(
      `function f(tool, remote) { const x = remote.readAdminSetting('limit'); if (!Number.isFinite(tool.maxResultSizeChars)) return Infinity; return x; }`,
      ["remote.readAdminSetting('limit')"],
      'tool.maxResultSizeChars',
      { settings: { 'tool-result-guard': { overrideLookups: ['readAdminSetting'] } } },
    ),
    // An indexed limits table the team declares as an override lookup, by name or by its dotted tail.
    invalid(
      `function f(tool, limits) { const d = tool.maxResultSizeChars; const o = limits[tool.name]; if (!Number.isFinite(d)) return d; return o ?? d; }`,
      ['limits[tool.name]'],
      'd',
      { settings: { 'tool-result-guard': { overrideLookups: ['limits'] } } },
    ),
    invalid(
      `function f(tool, config) { const d = tool.maxResultSizeChars; return config.remote.limits?.[tool.name] ?? d; }`,
      ['config.remote.limits?.[tool.name]'],
      'd',
      { settings: { 'tool-result-guard': { overrideLookups: ['remote.limits'] } } },
    ),
    // A sentinel after an await that may throw is still on the path; the lookup before it is not.
    invalid(
      `async function f(tool, client) { const overrides = await client.fetchOverrides(); const o = overrides[tool.name]; if (!Number.isFinite(tool.maxResultSizeChars)) return Infinity; return o; }`,
      ['overrides[tool.name]'],
      'tool.maxResultSizeChars',
    ),
  ],
});
