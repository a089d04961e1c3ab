// The harness's own replacement state, named like tool-result-guard's but not
// tool-result-guard's: its clone is its own method.
export class ReplacementState {
  readonly seenIds: Set<string>;
  readonly replacements: Map<string, string>;

  constructor(seenIds: Iterable<string> = [], replacements: Iterable<[string, string]> = []) {
    this.seenIds = new Set(seenIds);
    this.replacements = new Map(replacements);
  }

  clone(): ReplacementState {
    return new ReplacementState(this.seenIds, this.replacements);
  }
}

/** What a resumed session starts from: plain data, saved with the transcript. */
export interface ResumeSnapshot {
  seenIds: Set<string>;
  replacements: Map<string, string>;
}
