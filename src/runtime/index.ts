// The persistence runtime (seeds 000 and 002). Filled by the runtime modules.
export {};
