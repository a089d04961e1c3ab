// Seed 003: tool side-state leakage runtime.
export * from './python-json.js';
export * from './evaluate-invocation.js';
export * from './carriers.js';
export * from './journal.js';
export * from './invocation-ledger.js';
