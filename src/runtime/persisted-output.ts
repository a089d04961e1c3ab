/** Every replacement starts with this tag; content that already does is never persisted again. */
export const PERSISTED_OUTPUT_TAG = '<persisted-output>';
export const PERSISTED_OUTPUT_CLOSING_TAG = '</persisted-output>';

/** True when `content` is already a persisted-output replacement (ours or an upstream harness's). */
export function isPersistedOutput(content: string): boolean {
  return content.startsWith(PERSISTED_OUTPUT_TAG);
}

/** The persist result shape a replacement is built from. */
export interface PersistResultShape {
  readonly path: string;
  readonly size: number;
  readonly preview: string;
}

/** True when `value` is the `{ path, size, preview }` a store's `persist` resolves to. */
export function isPersistResultShape(value: unknown): value is PersistResultShape {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof PersistResultShape, unknown>>;
  return typeof candidate.path === 'string' && typeof candidate.size === 'number' && typeof candidate.preview === 'string';
}

/**
 * The text the model sees instead of a persisted result: the tag, the size,
 * the path, the store's preview. Deterministic in its input, so a replacement
 * rebuilt from the same persist result is byte-identical; it is also what the
 * transcript records, and a resume reuses the recorded string verbatim.
 */
export function formatPersistedOutput(persisted: PersistResultShape): string {
  // A template, not an array join: the preview is not copied until the
  // prompt is serialized, which keeps thousands of replacements cheap.
  return `${PERSISTED_OUTPUT_TAG}
Output too large (${persisted.size} characters). Full output saved to: ${persisted.path}

Preview (first ${persisted.preview.length} characters):
${persisted.preview}
${PERSISTED_OUTPUT_CLOSING_TAG}`;
}

/** What the template adds around the path and preview, with both numbers written as one digit. */
const TEMPLATE_CHARS = formatPersistedOutput({ path: '', size: 0, preview: '' }).length - 2;

/**
 * The exact length `formatPersistedOutput` gives for a result of `size`
 * characters, persisted at a path of `pathLength` characters with a preview
 * of `previewLength`: the budget needs it before persisting, to replace only
 * what the replacement really shrinks.
 */
export function persistedOutputLength(size: number, pathLength: number, previewLength: number): number {
  return TEMPLATE_CHARS + String(size).length + pathLength + String(previewLength).length + previewLength;
}
