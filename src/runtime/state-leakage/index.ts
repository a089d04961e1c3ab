// Seed 003: tool side-state leakage runtime.
export {};
