// Remote feature flags, refreshed from the admin service. Values are whatever
// an admin typed: numbers, strings, nothing.
const remoteFlags = new Map<string, unknown>();

export function getFeatureValue<T>(key: string, fallback: T): T {
  return remoteFlags.has(key) ? (remoteFlags.get(key) as T) : fallback;
}

export function applyRemoteFlags(values: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(values)) remoteFlags.set(key, value);
}

/** Per-tool persistence thresholds an admin may tune without a release. */
export function getPersistenceOverrides(): Readonly<Record<string, unknown>> {
  return getFeatureValue<Record<string, unknown>>('tool_result_persistence_thresholds', {});
}
