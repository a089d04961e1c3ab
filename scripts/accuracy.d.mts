// Types for scripts/accuracy.mjs, so the real-world tests can import it.
export interface ToolLabel {
  file: string;
  line: number;
  name: string;
  shape: string;
  selfReading: 'yes' | 'no' | 'judgement';
  stateful: 'yes' | 'no' | 'judgement';
  why: string;
}

export interface LabelSet {
  labelFile: string;
  package: string;
  version: string;
  integrity: string;
  kind: string;
  lint: string[];
  extensions: string[];
  notes?: string;
  tools: ToolLabel[];
}

export interface ScoredMistake {
  where: string;
  why: string;
  rule: string;
}

export interface ConfusionSummary {
  truePositive: number;
  falsePositive: number;
  falseNegative: number;
  trueNegative: number;
  judgement: number;
  misses: ScoredMistake[];
  falseReports: ScoredMistake[];
  recall: number;
  precision: number;
}

export interface AccuracyReport {
  packages: {
    package: string;
    kind: string;
    files: number;
    parseErrors: { file: string; message: string }[];
    labelled: number;
    recognised: number;
    unlabelledTools: number;
  }[];
  recognition: { labelled: number; recognised: number; rate: number; unrecognised: { where: string; shape: string }[] };
  selfReading: ConfusionSummary;
  stateful: ConfusionSummary;
  unlabelledReports: { where: string; selfReading: boolean; stateful: boolean }[];
  /** The same figures per set: `tuned` (packages fixed with them in view) and `held-out` (first contact only). */
  sets: Partial<Record<'tuned' | 'held-out', SetSummary>>;
}

export interface SetSummary {
  packages: number;
  recognition: { labelled: number; recognised: number; rate: number };
  selfReading: ConfusionSummary;
  stateful: ConfusionSummary;
}

export const LABELS_DIRECTORY: string;
export function loadLabelSets(): LabelSet[];
export function ensureLabelledPackages(): Map<string, string>;
export function evaluateAccuracy(options?: { only?: readonly string[] }): Promise<AccuracyReport>;
