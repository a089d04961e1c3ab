import { getFeatureValue, getPersistenceOverrides } from '../config/flags.js';

interface ThresholdTool {
  readonly name: string;
  readonly maxResultSizeChars: number;
}

// DEFECT (circular persistence): both override lookups run before the sentinel exit, so
// an admin threshold for read_file silently re-enables persistence for a
// tool that declared itself self-bounding.
export function getEffectivePersistenceThreshold(tool: ThresholdTool): number {
  const overrides = getPersistenceOverrides();
  const override = overrides[tool.name];
  const globalCap = getFeatureValue<number | undefined>('tool_result_global_cap', undefined);

  const declared = tool.maxResultSizeChars;
  if (!Number.isFinite(declared)) {
    return declared;
  }
  if (typeof override === 'number' && Number.isFinite(override) && override > 0) {
    return override;
  }
  if (typeof globalCap === 'number' && globalCap > 0) {
    return Math.min(declared, globalCap);
  }
  return declared;
}
