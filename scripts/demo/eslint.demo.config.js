// The flat config `npm run demo` lints examples/agent-harness/ with: the built
// plugin's `recommended` config, exactly what a user's eslint.config.js holds,
// plus the state-leakage rule, which `strict` adds.
import toolResultGuard from '../../dist/eslint-plugin.js';

export default [toolResultGuard.configs.recommended, { rules: { 'tool-result-guard/declare-tool-state-scope': 'error' } }];
