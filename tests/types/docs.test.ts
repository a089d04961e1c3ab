// docs/types.md moves with the code: every instruction the compiler prints
// is shown there verbatim, and every export of src/types is described.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as messages from '../../src/types/messages.js';

const repositoryRoot = new URL('../../', import.meta.url);
const docs = readFileSync(new URL('docs/types.md', repositoryRoot), 'utf8');
const normalize = (text: string) => text.replace(/\s+/g, ' ');

describe('docs/types.md', () => {
  it.each(Object.entries(messages))('shows the %s instruction verbatim', (_name, message) => {
    expect(normalize(docs)).toContain(normalize(message));
  });

  it('describes every export of src/types', () => {
    const index = readFileSync(new URL('src/types/index.ts', repositoryRoot), 'utf8');
    const exported = [...index.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((match) =>
      match[1]!
        .split(',')
        .map((name) => name.trim().replace(/^type /, ''))
        .filter(Boolean),
    );
    expect(exported.length).toBeGreaterThan(25);
    for (const name of exported) expect(docs, name).toContain(name);
  });

  it('is linked from the README', () => {
    expect(readFileSync(new URL('README.md', repositoryRoot), 'utf8')).toContain('docs/types.md');
  });
});
