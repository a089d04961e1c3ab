// The flat config `npm run demo` lints examples/agent-harness/ with: the built
// plugin's `recommended` config, exactly what a user's eslint.config.js holds.
import toolResultGuard from '../../dist/eslint-plugin.js';

export default [toolResultGuard.configs.recommended];
