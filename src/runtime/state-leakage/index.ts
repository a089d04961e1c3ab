// State leakage: the runtime that keeps tool side-state from leaking between invocations.
export * from './python-json.js';
export * from './evaluate-invocation.js';
export * from './state-carrier.js';
export * from './cookie-jar-carrier.js';
export * from './cache-carrier.js';
export * from './client-factory-carrier.js';
export * from './session-rate-limit.js';
export * from './journal.js';
export { LedgerLockedError, type LockHolder } from './journal-lock.js';
export * from './invocation-ledger.js';
